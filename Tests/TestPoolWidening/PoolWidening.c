// Swift's global concurrent executor has one thread per core (two on the CI machine). Swift
// Testing runs every test function on it, and many tests wait synchronously (for a child process,
// a server, a socket, a deadline): two such tests stall every other test of their process while
// the cores sit idle. When `LIVEPAIR_TEST_POOL_THREADS=N` is set, this constructor installs the
// runtime's documented enqueue hook (`swift_task_enqueueGlobal_hook`) so that jobs run on N threads
// of their own instead, first in first out. Only the test processes link this target; the product
// never does. Delayed jobs (`Task.sleep`) still start on the runtime's own pool and continue here.
#include "TestPoolWidening.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct Job Job;
struct SerialExecutorRef {
    void *identity;
    uintptr_t implementation;
};
typedef void (*__attribute__((swiftcall)) EnqueueOriginal)(Job *job);
typedef void (*__attribute__((swiftcall)) EnqueueHook)(Job *job, EnqueueOriginal original);
extern EnqueueHook swift_task_enqueueGlobal_hook;
extern void __attribute__((swiftcall)) swift_job_run(Job *job, struct SerialExecutorRef executor);

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static Job **queue_jobs;
static size_t queue_capacity, queue_head, queue_count;
static void push(Job *job) {
    pthread_mutex_lock(&queue_lock);
    if (queue_count == queue_capacity) {
        size_t capacity = queue_capacity ? queue_capacity * 2 : 1024;
        Job **grown = malloc(capacity * sizeof *grown);
        if (!grown) abort();
        for (size_t i = 0; i < queue_count; i++) grown[i] = queue_jobs[(queue_head + i) % queue_capacity];
        free(queue_jobs);
        queue_jobs = grown;
        queue_capacity = capacity;
        queue_head = 0;
    }
    queue_jobs[(queue_head + queue_count) % queue_capacity] = job;
    queue_count++;
    pthread_cond_signal(&queue_ready);
    pthread_mutex_unlock(&queue_lock);
}

static void *worker(void *unused) {
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (queue_count == 0) pthread_cond_wait(&queue_ready, &queue_lock);
        Job *job = queue_jobs[queue_head];
        queue_head = (queue_head + 1) % queue_capacity;
        queue_count--;
        pthread_mutex_unlock(&queue_lock);
        struct SerialExecutorRef generic = {0, 0};
        swift_job_run(job, generic);
    }
    return NULL;
}

static void __attribute__((swiftcall)) enqueue(Job *job, EnqueueOriginal original) {
    (void)original;
    push(job);
}

__attribute__((constructor)) static void widen_pool(void) {
    const char *text = getenv("LIVEPAIR_TEST_POOL_THREADS");
    if (!text) return;
    char *end;
    long threads = strtol(text, &end, 10);
    if (*end != '\0' || threads < 1 || threads > 64) return;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 8 << 20);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    for (long i = 0; i < threads; i++) {
        pthread_t thread;
        if (pthread_create(&thread, &attributes, worker, NULL) != 0) abort();
    }
    pthread_attr_destroy(&attributes);
    swift_task_enqueueGlobal_hook = enqueue;
}
