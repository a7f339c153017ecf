// Widens Swift's global concurrent executor for the test processes (see PoolWidening.c).
#pragma once

/// The number of threads the widened pool runs, or 0 when the pool was not widened
/// (`LIVEPAIR_TEST_POOL_THREADS` unset or not a number from 1 to 64).
int livepair_test_pool_threads(void);
