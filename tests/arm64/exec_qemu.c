// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/arm64/exec_qemu.c - lets aarch64 programs run under qemu-user
 * start other aarch64 programs, without binfmt_misc (which a container
 * often cannot register).  `make check-arm64` preloads it into the
 * guest: Criterion starts each test by execve() of its own executable,
 * which the host kernel would refuse (ENOEXEC); this execve() runs
 * $RCULIST_ARM64_QEMU (a static qemu-aarch64, so that the guest's
 * LD_PRELOAD means nothing to it) on the program instead, keeping its
 * argv[0] (-0).  Anything else (a host /bin/sh) is executed as it is.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int execve_fn(const char *, char *const[], char *const[]);

int execve(const char *path, char *const argv[], char *const envp[]);

/* Whether @path is an aarch64 ELF file. */
static int is_aarch64(const char *path)
{
	Elf64_Ehdr eh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, &eh, sizeof(eh));
	close(fd);
	return n == (ssize_t)sizeof(eh) &&
	       memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	       eh.e_machine == EM_AARCH64;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn *real = (execve_fn *)dlsym(RTLD_NEXT, "execve");
	const char *qemu = getenv("RCULIST_ARM64_QEMU");
	size_t argc = 0;

	while (argv[argc])
		argc++;
	if (!qemu || !argc || !is_aarch64(path))
		return real(path, argv, envp);
	{
		/* After fork(): no malloc, a variable-length array. */
		char *nargv[argc + 4];
		size_t i;

		nargv[0] = (char *)(size_t)qemu;
		nargv[1] = (char *)"-0";
		nargv[2] = argv[0];
		nargv[3] = (char *)(size_t)path;
		for (i = 1; i <= argc; i++) /* argv[argc] is NULL */
			nargv[3 + i] = argv[i];
		return real(qemu, nargv, envp);
	}
}
