// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * bench-devcoredump gen FILE MIB   write a generated 6.12-format dump of at
 *                                  least MIB MiB (header, IP dump, rings)
 * bench-devcoredump parse FILE     read and parse it once
 *
 * run-throughput.sh compares the second against `grep -c ''` on the same
 * file, in callgrind instructions and in wall-clock time.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gpurobust/coredump.h>

#include "dumpgen.h"

static int gen(const char *path, long mib)
{
	struct textbuf b = { 0 };
	FILE *f = fopen(path, "w");

	if (!f)
		return 1;
	gen_header_612(&b, "6.12.117", "bench", 1, "gfx_0.0.0");
	gen_ip_dump_612(&b);
	/* rings of 64 KiB, as amdgpu's gfx ring, are most of a real dump */
	while (b.len < (size_t)mib << 20)
		gen_rings_612(&b, 1, 16384);
	fwrite(b.p, 1, b.len, f);
	free(b.p);
	return fclose(f) ? 1 : 0;
}

/* Map the file, as grep reads it without copying, and parse it. */
static int parse(const char *path)
{
	struct gpurobust_coredump *d;
	int fd = open(path, O_RDONLY), r;
	struct stat st;
	char *text;

	if (fd < 0 || fstat(fd, &st))
		return 1;
	text = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (text == MAP_FAILED)
		return 1;
	r = gpurobust_coredump_parse(text, (size_t)st.st_size, &d);
	if (!r) {
		printf("%lld bytes, %zu rings, %zu diagnostics\n", (long long)st.st_size,
		       d->n_rings, d->n_diags);
		gpurobust_coredump_free(d);
	}
	munmap(text, (size_t)st.st_size);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "gen"))
		return gen(argv[2], strtol(argv[3], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "parse"))
		return parse(argv[2]);
	fprintf(stderr, "usage: bench-devcoredump gen FILE MIB | parse FILE\n");
	return 2;
}
