// Widens Swift's global concurrent executor for the test processes (see PoolWidening.c). The
// target has no API: linking it is enough (its constructor runs when the test binary loads).
#pragma once
