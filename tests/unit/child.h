/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/child.h - wait for a child of fork() with a bound
 * (tests/unit/poll.c): a child that hangs is killed, not waited for
 * until the suite's timeout.
 */
#ifndef RCULIST_TESTS_CHILD_H
#define RCULIST_TESTS_CHILD_H

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Wait for @pid up to @ms milliseconds (polled each millisecond): its
 * exit status, 128 if a signal killed it, or -1 (it hung: killed now).
 */
static inline int wait_bounded(pid_t pid, long ms)
{
	int status;
	long waited;

	for (waited = 0; waited < ms; waited++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		usleep(1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

#endif /* RCULIST_TESTS_CHILD_H */
