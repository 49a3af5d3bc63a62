// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The crash store's files, as collect.conf shapes them and as users see
 * them: the owner's group and 0640; another user's crash refused by the
 * kernel, not by the library; MaxUse, Storage=none and DumpSizeMax; a full
 * file system that costs the oldest crashes their files and no crash its
 * entry; a scribbled zstd frame is an error, not a crash.
 *
 * The ownership and full-disk tests need root (chown to any group, a
 * private tmpfs): as another user they skip and say why.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpurobust/collector.h>

#include "dumpgen.h"

#define NOBODY		65534
#define PADDING		(64 * 1024)

static char *make_dir(void)
{
	char *dir = strdup("/tmp/gpurobust-files-test-XXXXXX");

	assert_non_null(mkdtemp(dir));
	/* other users reach the store through it, as through /var/lib */
	assert_int_equal(chmod(dir, 0755), 0);
	return dir;
}

static void remove_dir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* A dump of process @name with @pad bytes that do not compress (a dump's
 * memory contents do not either), and its report. */
static struct gpurobust_report *crash(const char *name, int pid, size_t pad, struct textbuf *text)
{
	struct gpurobust_coredump *d;
	struct gpurobust_report *r;
	uint32_t x = (uint32_t)pid * 2654435761u;

	text->len = 0;
	gen_header_612(text, "6.12.117", name, pid, "gfx_0.0.0");
	tb_printf(text, "IB content:\n");
	for (size_t i = 0; i < pad / 9; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		tb_printf(text, "%08x\n", x);
	}
	assert_int_equal(gpurobust_coredump_parse(text->p, text->len, &d), 0);
	assert_int_equal(gpurobust_report_build(d, NULL, &r), 0);
	gpurobust_coredump_free(d);
	return r;
}

static void record(struct gpurobust_store *s, const char *name, int pid, size_t pad,
		   int64_t seen, bool owner_known, uint32_t owner)
{
	struct textbuf text = { 0 };
	struct gpurobust_report *r = crash(name, pid, pad, &text);
	struct gpurobust_store_event ev = {
		.report = r, .dump = text.p, .dump_len = text.len,
		.dmesg = "amdgpu: ring gfx_0.0.0 timeout\n", .dmesg_len = 31, .seen = seen,
		.owner_known = owner_known, .uid = owner, .gid = owner,
		.device = "0000:03:00.0",
	};

	assert_int_equal(gpurobust_store_record(s, &ev, NULL), 0);
	gpurobust_report_free(r);
	free(text.p);
}

static void file_mode(const char *dir, const char *file, unsigned int *mode, gid_t *gid)
{
	char path[600];
	struct stat st;

	snprintf(path, sizeof(path), "%s/dumps/%s", dir, file);
	assert_int_equal(stat(path, &st), 0);
	*mode = st.st_mode & 0777;
	*gid = st.st_gid;
}

/* Every file of a crash with an owner is 0640 and the owner's group's;
 * without one, 0600. */
static void test_files_take_the_owners_group(void **state)
{
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	char *dir = make_dir();
	unsigned int mode;
	gid_t gid;
	size_t n;

	(void)state;
	if (geteuid())
		skip();		/* chown to another group needs root */
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	record(s, "vkcube", 100, 0, 1000, true, 4242);
	record(s, "Xwayland", 101, 0, 1001, false, 0);
	gpurobust_store_close(s);
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_true(c[0].owner_known);
	assert_int_equal(c[0].uid, 4242);
	for (int f = 0; f < 2; f++) {
		file_mode(dir, f ? c[0].dmesg_file : c[0].dump_file, &mode, &gid);
		assert_int_equal(mode, 0640);
		assert_int_equal(gid, 4242);
	}
	assert_false(c[1].owner_known);
	file_mode(dir, c[1].dump_file, &mode, &gid);
	assert_int_equal(mode, 0600);
	free(c);
	remove_dir(dir);
	free(dir);
}

/* What `nobody` can do with a store holding its crash and root's. */
static int as_nobody(const char *dir)
{
	struct gpurobust_stored_crash *c;
	size_t n, hidden, len;
	char *data, other[600];
	struct dirent *de;
	int fails = 0;
	DIR *d;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return 100;
	fails += gpurobust_store_entries(dir, &c, &n, &hidden) != 0;
	if (fails)
		return fails;
	fails += n != 1 || hidden != 1;
	fails += n == 1 && strcmp(c[0].process, "vkcube");
	if (n == 1) {
		fails += gpurobust_store_read_file(dir, c[0].dump_file, &data, &len) != 0;
		if (!fails)
			free(data);
	}
	/* root's crash, by the name the directory shows: the kernel says no */
	snprintf(other, sizeof(other), "%s/dumps", dir);
	d = opendir(other);
	while (d && (de = readdir(d)))
		if (strstr(de->d_name, ".devcoredump") && n == 1 &&
		    strcmp(de->d_name, c[0].dump_file))
			fails += gpurobust_store_read_file(dir, de->d_name, &data, &len) != -EACCES;
	if (d)
		closedir(d);
	free(c);
	return fails;
}

static void test_a_user_sees_only_their_crashes(void **state)
{
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	char *dir = make_dir();
	size_t n, hidden, len;
	char *data;
	int status;
	pid_t pid;

	(void)state;
	if (geteuid())
		skip();		/* becoming another user needs root */
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	record(s, "vkcube", 200, 0, 2000, true, NOBODY);
	record(s, "Xorg", 201, 0, 2001, true, 0);
	gpurobust_store_close(s);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(as_nobody(dir));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* root sees both, and nobody's dump is refused to nobody only by
	 * permissions: root's file is 0640 root:root */
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, &hidden), 0);
	assert_int_equal(n, 2);
	assert_int_equal(hidden, 0);
	assert_int_equal(gpurobust_store_read_file(dir, c[1].dump_file, &data, &len), 0);
	free(data);
	assert_int_equal(gpurobust_store_read_file(dir, "../store.db", &data, &len), -EINVAL);
	free(c);
	remove_dir(dir);
	free(dir);
}

/* MaxUse: older crashes lose their files, oldest first; every crash keeps
 * its entry and its count; the newest keeps its files even alone above the
 * limit. */
static void test_max_use_removes_oldest_files_first(void **state)
{
	const struct gpurobust_store_policy p = { .keep_files = true, .compress = true,
						  .max_use = 3 * PADDING };
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	char *dir = make_dir();
	uint64_t events;
	size_t n, kept = 0;

	(void)state;
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	gpurobust_store_set_policy(s, &p);
	for (int i = 0; i < 6; i++)
		record(s, "vkcube", 300 + i, PADDING, 3000 + i, false, 0);
	assert_int_equal(gpurobust_store_count(s, &events), 0);
	assert_int_equal(events, 6);
	gpurobust_store_close(s);
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, NULL), 0);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++) {
		if (c[i].dump_present) {
			kept++;
			continue;
		}
		/* removed ones are the oldest: no kept crash before them */
		assert_int_equal(kept, 0);
		assert_string_equal(c[i].not_kept, "removed: MaxUse");
		assert_string_equal(c[i].dump_file, "");
	}
	assert_true(kept >= 1 && kept < 6);
	assert_true(c[5].dump_present);
	free(c);
	remove_dir(dir);
	free(dir);
}

/* A collector killed between reserving a crash's name and writing its
 * entry leaves an empty entry and maybe its dump: the next crash stored
 * removes them once they are an hour old, and leaves alone one that a
 * collector may still be writing, and every listed crash. */
static void test_abandoned_reservations_are_swept(void **state)
{
	const char *const names[] = { "100-00000000000000aa-Abc123", "200-00000000000000bb-Def456" };
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	char *dir = make_dir(), path[600];
	struct timespec old[2] = { { 0, 0 }, { 0, 0 } };
	size_t n;

	(void)state;
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	record(s, "vkcube", 301, PADDING, 3000, false, 0);
	/* names[0] abandoned two hours ago, names[1] being written now */
	old[0].tv_sec = old[1].tv_sec = time(NULL) - 7200;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/dumps/%s.json", dir, names[i]);
		close(open(path, O_CREAT | O_WRONLY, 0600));
		if (!i)
			assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
		snprintf(path, sizeof(path), "%s/dumps/%s.devcoredump.zst", dir, names[i]);
		close(open(path, O_CREAT | O_WRONLY, 0600));
	}
	record(s, "vkcube", 302, PADDING, 3001, false, 0);
	gpurobust_store_close(s);
	snprintf(path, sizeof(path), "%s/dumps/%s.json", dir, names[0]);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/dumps/%s.devcoredump.zst", dir, names[0]);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/dumps/%s.json", dir, names[1]);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/dumps/%s.devcoredump.zst", dir, names[1]);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_true(c[0].dump_present && c[1].dump_present);
	free(c);
	remove_dir(dir);
	free(dir);
}

/* Storage=none counts and lists the crash without files; DumpSizeMax drops
 * only the dump; Compress=no keeps the dump as it was. */
static void test_policy_decides_the_files(void **state)
{
	struct gpurobust_store_policy p = { .keep_files = false };
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	char *dir = make_dir(), *data;
	size_t n, len;

	(void)state;
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	gpurobust_store_set_policy(s, &p);
	record(s, "a", 400, 0, 4000, false, 0);
	p = (struct gpurobust_store_policy){ .keep_files = true, .dump_size_max = 1024 };
	gpurobust_store_set_policy(s, &p);
	record(s, "b", 401, PADDING, 4001, false, 0);
	p.dump_size_max = 0;
	gpurobust_store_set_policy(s, &p);
	record(s, "c", 402, 0, 4002, false, 0);
	gpurobust_store_close(s);
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, NULL), 0);
	assert_int_equal(n, 3);
	assert_string_equal(c[0].not_kept, "Storage=none");
	assert_string_equal(c[0].dump_file, "");
	assert_string_equal(c[0].dmesg_file, "");
	assert_string_equal(c[1].not_kept, "larger than DumpSizeMax");
	assert_string_equal(c[1].dump_file, "");
	assert_string_not_equal(c[1].dmesg_file, "");
	assert_null(strstr(c[2].dump_file, ".zst"));
	assert_int_equal(gpurobust_store_read_file(dir, c[2].dump_file, &data, &len), 0);
	assert_int_equal(len, c[2].dump_size);
	free(data);
	free(c);
	remove_dir(dir);
	free(dir);
}

/* In a private 512 KiB tmpfs: crashes keep coming; each is recorded, the
 * oldest give up their files, and the database stays whole. */
static int fill_a_small_disk(const char *dir)
{
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	size_t n, gave_way = 0;
	uint64_t events;
	int fails = 0;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", dir, "tmpfs", 0, "size=512k,mode=0755"))
		return 100;
	if (gpurobust_store_open(dir, &s))
		return 101;
	for (int i = 0; i < 20; i++)
		record(s, "vkcube", 500 + i, PADDING, 5000 + i, false, 0);
	fails += gpurobust_store_count(s, &events) || events != 20;
	gpurobust_store_close(s);
	fails += gpurobust_store_entries(dir, &c, &n, NULL) != 0;
	if (fails)
		return fails;
	fails += n != 20;
	for (size_t i = 0; i < n; i++)
		gave_way += !strcmp(c[i].not_kept, "removed: disk full") ||
			    !strcmp(c[i].not_kept, "no space left");
	fails += gave_way == 0 || !c[n - 1].dump_present;
	free(c);
	return fails;
}

static void test_a_full_disk_costs_files_not_crashes(void **state)
{
	char *dir = make_dir();
	int status;
	pid_t pid;

	(void)state;
	if (geteuid())
		skip();		/* a private tmpfs needs root */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(fill_a_small_disk(dir));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	remove_dir(dir);
	free(dir);
}

/* A scribbled or cut compressed file reads as -EBADMSG. */
static void test_a_scribbled_file_is_an_error(void **state)
{
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	char *dir = make_dir(), path[600], *data;
	size_t n, len;
	FILE *f;

	(void)state;
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	record(s, "vkcube", 600, PADDING, 6000, false, 0);
	record(s, "vkcube", 601, PADDING, 6001, false, 0);
	gpurobust_store_close(s);
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, NULL), 0);
	snprintf(path, sizeof(path), "%s/dumps/%s", dir, c[0].dump_file);
	f = fopen(path, "r+");
	assert_non_null(f);
	fseek(f, 100, SEEK_SET);
	fputs("scribbled", f);
	fclose(f);
	assert_int_equal(gpurobust_store_read_file(dir, c[0].dump_file, &data, &len), -EBADMSG);
	snprintf(path, sizeof(path), "%s/dumps/%s", dir, c[1].dump_file);
	assert_int_equal(truncate(path, 1000), 0);
	assert_int_equal(gpurobust_store_read_file(dir, c[1].dump_file, &data, &len), -EBADMSG);
	free(c);
	remove_dir(dir);
	free(dir);
}

/* One of the collectors that record at once, each its own crash, with a
 * limit every one of them finds broken. */
static int pruning_writer(const char *dir, int w)
{
	const struct gpurobust_store_policy p = { .keep_files = true, .compress = false,
						  .keep_free = UINT64_MAX / 2 };
	struct gpurobust_store *s;

	if (gpurobust_store_open(dir, &s))
		return 1;
	gpurobust_store_set_policy(s, &p);
	record(s, "vkcube", 800 + w, PADDING, 8000 + w, false, 0);
	gpurobust_store_close(s);
	return 0;
}

/* Collectors that record at once spare each other's new crashes: each only
 * strips crashes older than its own, so the newest keeps its dump however
 * they interleave, and every crash is counted and listed. Repeated, since
 * a bad interleaving is not the only one. */
static void test_concurrent_pruning_spares_new_crashes(void **state)
{
	(void)state;
	for (int round = 0; round < 5; round++) {
		struct gpurobust_stored_crash *c;
		struct gpurobust_store *s;
		char *dir = make_dir();
		pid_t pids[8];
		uint64_t events;
		size_t n;

		for (int w = 0; w < 8; w++) {
			pids[w] = fork();
			assert_true(pids[w] >= 0);
			if (!pids[w])
				_exit(pruning_writer(dir, w));
		}
		for (int w = 0; w < 8; w++) {
			int status;

			assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
			assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		assert_int_equal(gpurobust_store_open(dir, &s), 0);
		assert_int_equal(gpurobust_store_count(s, &events), 0);
		assert_int_equal(events, 8);
		gpurobust_store_close(s);
		assert_int_equal(gpurobust_store_entries(dir, &c, &n, NULL), 0);
		assert_int_equal(n, 8);
		assert_int_equal(c[7].seen, 8007);
		assert_true(c[7].dump_present);
		free(c);
		remove_dir(dir);
		free(dir);
	}
}

static void wedged(const char *dir, int64_t seen, const char *device, int32_t pid,
		   const char *method)
{
	struct gpurobust_wedged w = { .seen = seen, .pid = pid };

	snprintf(w.device, sizeof(w.device), "%s", device);
	snprintf(w.node, sizeof(w.node), "card0");
	snprintf(w.method, sizeof(w.method), "%s", method);
	snprintf(w.task, sizeof(w.task), "vkcube");
	assert_int_equal(gpurobust_store_record_wedged(dir, &w), 0);
}

/* A WEDGED uevent joins the crash of its hang whichever came first: same
 * device, same pid, within a minute. Another device's, another pid's, or an
 * hour-old one join nothing; a crash without one (6.12) has none. */
static void test_wedged_uevents_link_to_their_hang(void **state)
{
	struct gpurobust_stored_crash *c;
	struct gpurobust_store *s;
	char *dir = make_dir();
	size_t n;

	(void)state;
	/* before any crash: the store does not exist yet */
	wedged(dir, 7000, "0000:03:00.0", 700, "none");
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	record(s, "vkcube", 700, 0, 7002, false, 0);
	record(s, "vkcube", 701, 0, 7100, false, 0);
	record(s, "vkcube", 702, 0, 7200, false, 0);
	record(s, "vkcube", 703, 0, 9000, false, 0);
	gpurobust_store_close(s);
	wedged(dir, 7105, "0000:03:00.0", 701, "rebind");	/* after its crash */
	wedged(dir, 7201, "0000:03:00.0", 999, "none");		/* another pid */
	wedged(dir, 7202, "0000:0a:00.0", 702, "none");		/* another GPU */
	wedged(dir, 7040, "0000:03:00.0", 700, "rebind");	/* farther than 7000's */
	wedged(dir, 5400, "0000:03:00.0", 703, "none");		/* an hour before */
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, NULL), 0);
	assert_int_equal(n, 4);
	assert_string_equal(c[0].wedged, "none");
	assert_int_equal(c[0].wedged_pid, 700);
	assert_string_equal(c[0].wedged_task, "vkcube");
	assert_string_equal(c[0].device, "0000:03:00.0");
	assert_string_equal(c[1].wedged, "rebind");
	assert_string_equal(c[2].wedged, "");
	assert_string_equal(c[3].wedged, "");
	free(c);
	remove_dir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files_take_the_owners_group),
		cmocka_unit_test(test_a_user_sees_only_their_crashes),
		cmocka_unit_test(test_max_use_removes_oldest_files_first),
		cmocka_unit_test(test_policy_decides_the_files),
		cmocka_unit_test(test_a_full_disk_costs_files_not_crashes),
		cmocka_unit_test(test_a_scribbled_file_is_an_error),
		cmocka_unit_test(test_wedged_uevents_link_to_their_hang),
		cmocka_unit_test(test_concurrent_pruning_spares_new_crashes),
		cmocka_unit_test(test_abandoned_reservations_are_swept),
	};

	return cmocka_run_group_tests_name("store-files", tests, NULL, NULL);
}
