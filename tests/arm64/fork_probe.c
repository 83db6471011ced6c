// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/arm64/fork_probe.c - whether this qemu-user can fork() a guest
 * while other guest threads are creating threads.  No rculist, no
 * liburcu: two threads create and join threads without pause while the
 * main thread forks @forks times (default 50); each child exits at once.
 *
 * Natively it ends in a fraction of a second.  Under Debian bookworm's
 * qemu-user 7.2 a child hangs within the first few forks, on a lock in
 * qemu's own memory with every host signal blocked (its alarm() stays
 * pending), so make check-arm64 runs this with a time limit and, when
 * it does not end, leaves out the unit tests that fork while threads
 * are being created, saying why.
 *
 * Exit: 0 if every child exited 0, 1 otherwise.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int stop;

static void *just_exit(void *arg)
{
	return arg;
}

static void *create_threads(void *arg)
{
	pthread_t tid;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
		if (!pthread_create(&tid, NULL, just_exit, NULL))
			pthread_join(tid, NULL);
	return arg;
}

int main(int argc, char **argv)
{
	int forks = argc > 1 ? atoi(argv[1]) : 50, i, status, bad = 0;
	pthread_t tid[2];
	pid_t pid;

	for (i = 0; i < 2; i++)
		if (pthread_create(&tid[i], NULL, create_threads, NULL)) {
			perror("fork_probe: pthread_create");
			return 1;
		}
	for (i = 0; i < forks; i++) {
		pid = fork();
		if (pid == -1) {
			perror("fork_probe: fork");
			return 1;
		}
		if (!pid)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	printf("fork_probe: %d forks, %d children failed\n", forks, bad);
	return !!bad;
}
