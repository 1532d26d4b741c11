/* locklab-real's clock shim, LD_PRELOADed into redis-server: steps and drifts the process's
 * wall clock (CLOCK_REALTIME and _COARSE, gettimeofday, time) by what the harness writes into
 * the file named by LOCKLAB_CLOCK_FILE: three little-endian i64 at offsets 0, 8, 16 =
 * offset_ns, ppm, base_ns. Faked = real + offset + (real - base) * ppm / 1e6 (the drift term only
 * once ppm != 0). Monotonic clocks are untouched. Only raw syscalls: nothing allocates, nothing
 * calls back into libc's clock (jemalloc calls clock_gettime early, which is what defeats
 * libfaketime 0.9.10 on redis-server 7). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int64_t *shared;

__attribute__((constructor)) static void locklab_clock_init(void) {
    extern char **environ;
    const char *key = "LOCKLAB_CLOCK_FILE=";
    for (char **e = environ; e && *e; e++) {
        const char *p = *e, *k = key;
        while (*k && *p == *k) { p++; k++; }
        if (*k) continue;
        long fd = syscall(SYS_openat, AT_FDCWD, p, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        long m = syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_SHARED, fd, 0);
        syscall(SYS_close, fd);
        if (m != -1) shared = (volatile int64_t *)m;
        return;
    }
}

static int64_t shift_ns(int64_t real_ns) {
    if (!shared) return 0;
    int64_t offset = shared[0], ppm = shared[1], base = shared[2];
    int64_t drift = ppm ? (int64_t)((double)(real_ns - base) * (double)ppm / 1e6) : 0;
    return offset + drift;
}

static int raw(clockid_t id, struct timespec *ts) { return (int)syscall(SYS_clock_gettime, id, ts); }

int clock_gettime(clockid_t id, struct timespec *ts) {
    int r = raw(id, ts);
    if (r == 0 && ts && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
        int64_t ns = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
        ns += shift_ns(ns);
        ts->tv_sec = ns / 1000000000;
        ts->tv_nsec = ns % 1000000000;
    }
    return r;
}

int gettimeofday(struct timeval *tv, void *tz) {
    (void)tz;
    struct timespec ts;
    int r = clock_gettime(CLOCK_REALTIME, &ts);
    if (r == 0 && tv) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    return r;
}

time_t time(time_t *t) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (t) *t = ts.tv_sec;
    return ts.tv_sec;
}
