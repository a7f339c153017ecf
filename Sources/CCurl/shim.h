#ifndef LIVEPAIR_CCURL_SHIM_H
#define LIVEPAIR_CCURL_SHIM_H

// libcurl for LivePairS3. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call: each argument type the S3 client passes gets a typed inline wrapper here.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// A callback that receives or supplies bytes (CURLOPT_WRITEFUNCTION, CURLOPT_READFUNCTION,
/// CURLOPT_HEADERFUNCTION).
typedef size_t (*livepair_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

/// curl_global_init with the default flags (a macro Swift cannot import).
static inline CURLcode livepair_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

static inline CURLcode livepair_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode livepair_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode livepair_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode livepair_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode livepair_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode livepair_curl_setopt_callback(
    CURL *handle, CURLoption option, livepair_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode livepair_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
