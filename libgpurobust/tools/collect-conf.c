// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>

#include <gpurobust/fleet.h>

#include "collect-conf.h"
#include "crash-common.h"

#define DEFAULT_DUMP_SIZE_MAX	(1ull << 30)
#define DEFAULT_LIMIT_CAP	(4ull << 30)
#define MIN(a, b)		((a) < (b) ? (a) : (b))

void collect_conf_defaults(struct collect_conf *conf)
{
	*conf = (struct collect_conf){
		.policy = { .keep_files = true, .compress = true,
			    .dump_size_max = DEFAULT_DUMP_SIZE_MAX },
		.fleet_outbox = GPUROBUST_OUTBOX_DIR,
	};
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(v, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(v, no[i]))
			return *out = false, 0;
	}
	return -EINVAL;
}

/* Bytes, with systemd's base-1024 suffixes (K, M, G, T, optionally "B" or
 * "iB" after them); "infinity" is no limit (0). */
static int parse_size(const char *v, uint64_t *out)
{
	static const char units[] = "KMGT";
	unsigned long long n;
	const char *u;
	char *end;

	if (!strcmp(v, "infinity"))
		return *out = 0, 0;
	if (!isdigit((unsigned char)*v))
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno)
		return -ERANGE;
	if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
		for (long i = 0; i <= u - units; i++) {
			if (n > UINT64_MAX / 1024)
				return -ERANGE;
			n *= 1024;
		}
		end++;
		if (!strcmp(end, "iB"))
			end += 2;
	}
	if (!strcmp(end, "B"))
		end++;
	if (*end)
		return -EINVAL;
	*out = n;
	return 0;
}

/* A limit: empty is the default (unset), a bad value leaves it as it was. */
static int parse_limit(const char *v, uint64_t *limit, bool *set)
{
	uint64_t n;
	int r;

	if (!*v) {
		*set = false;
		return 0;
	}
	r = parse_size(v, &n);
	if (!r) {
		*limit = n;
		*set = true;
	}
	return r;
}

/* A fleet store's URI (gpurobust/fleet.h), or "" for none. */
static int parse_store_uri(const char *v, char *out, size_t size)
{
	if (*v && strncmp(v, "sqlite://", 9) && strncmp(v, "postgresql:", 11) &&
	    strncmp(v, "postgres://", 11))
		return -EINVAL;
	if (strlen(v) >= size)
		return -ERANGE;
	strcpy(out, v);
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int apply(struct collect_conf *conf, const char *key, const char *v)
{
	struct gpurobust_store_policy *p = &conf->policy;

	if (!strcmp(key, "Storage")) {
		if (!strcmp(v, "external"))
			p->keep_files = true;
		else if (!strcmp(v, "none"))
			p->keep_files = false;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "Compress"))
		return parse_bool(v, &p->compress);
	if (!strcmp(key, "DumpSizeMax"))
		return parse_size(v, &p->dump_size_max);
	/* an empty value is the default again, as systemd reads one */
	if (!strcmp(key, "MaxUse"))
		return parse_limit(v, &p->max_use, &conf->max_use_set);
	if (!strcmp(key, "KeepFree"))
		return parse_limit(v, &p->keep_free, &conf->keep_free_set);
	if (!strcmp(key, "FleetStore"))
		return parse_store_uri(v, conf->fleet_store, sizeof(conf->fleet_store));
	if (!strcmp(key, "FleetOutbox")) {
		if (v[0] != '/' || strlen(v) >= sizeof(conf->fleet_outbox))
			return -EINVAL;
		strcpy(conf->fleet_outbox, v);
		return 0;
	}
	return -ENOENT;
}

void collect_conf_parse(struct collect_conf *conf, const char *text, const char *source)
{
	char *copy = strdup(text), *line, *next;
	bool in_section = false;
	unsigned int n = 0;

	if (!copy) {
		fprintf(stderr, "gpurobust: %s: out of memory, ignored\n", source);
		return;
	}
	/* line by line, blank ones counted, so warnings name the right line */
	for (line = copy; line; line = next) {
		char *s, *eq;
		int r;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		s = trim(line);
		n++;
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			in_section = !strcmp(s, "[Collect]");
			continue;
		}
		eq = strchr(s, '=');
		if (!in_section || !eq) {
			fprintf(stderr, "gpurobust: %s:%u: %s, ignored\n", source, n,
				in_section ? "not KEY=VALUE" : "outside [Collect]");
			continue;
		}
		*eq = '\0';
		r = apply(conf, trim(s), trim(eq + 1));
		if (r == -ENOENT)
			fprintf(stderr, "gpurobust: %s:%u: unknown setting %s, ignored\n",
				source, n, trim(s));
		else if (r)
			fprintf(stderr, "gpurobust: %s:%u: bad value for %s, ignored\n",
				source, n, trim(s));
	}
	free(copy);
}

static void load_file(struct collect_conf *conf, const char *path)
{
	size_t len;
	char *text;
	int r = crash_read_file(path, &text, &len);

	if (r == -ENOENT)
		return;
	if (r) {
		fprintf(stderr, "gpurobust: %s: %s, ignored\n", path, strerror(-r));
		return;
	}
	collect_conf_parse(conf, text, path);
	free(text);
}

static int conf_file(const struct dirent *de)
{
	size_t len = strlen(de->d_name);

	return de->d_name[0] != '.' && len > 5 && !strcmp(de->d_name + len - 5, ".conf");
}

void collect_conf_load(struct collect_conf *conf, const char *dir)
{
	char path[PATH_MAX];
	struct dirent **names;
	int n;

	snprintf(path, sizeof(path), "%s/collect.conf", dir);
	load_file(conf, path);
	snprintf(path, sizeof(path), "%s/collect.conf.d", dir);
	n = scandir(path, &names, conf_file, alphasort);
	for (int i = 0; i < n; i++) {
		char file[PATH_MAX];

		if (snprintf(file, sizeof(file), "%s/collect.conf.d/%s", dir, names[i]->d_name) <
		    (int)sizeof(file))
			load_file(conf, file);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

void collect_conf_resolve(struct collect_conf *conf, const char *path)
{
	struct statvfs sv;
	uint64_t size;

	if ((conf->max_use_set && conf->keep_free_set) || statvfs(path, &sv))
		return;
	/* coredump.conf's defaults, capped at 4 GiB as systemd caps them */
	size = (uint64_t)sv.f_blocks * sv.f_frsize;
	if (!conf->max_use_set)
		conf->policy.max_use = MIN(size / 10, DEFAULT_LIMIT_CAP);
	if (!conf->keep_free_set)
		conf->policy.keep_free = MIN(size / 100 * 15, DEFAULT_LIMIT_CAP);
	conf->max_use_set = conf->keep_free_set = true;
}

static void print_size(FILE *out, const char *key, uint64_t v, bool set)
{
	if (!set)
		fprintf(out, "%s=(%s of the file system, at most 4G)\n", key,
			!strcmp(key, "MaxUse") ? "10%" : "15%");
	else if (!v)
		fprintf(out, "%s=infinity\n", key);
	else
		fprintf(out, "%s=%" PRIu64 "\n", key, v);
}

void collect_conf_print(const struct collect_conf *conf, FILE *out)
{
	const struct gpurobust_store_policy *p = &conf->policy;
	char shown[sizeof(conf->fleet_store)];

	fprintf(out, "[Collect]\nStorage=%s\nCompress=%s\n", p->keep_files ? "external" : "none",
		p->compress ? "yes" : "no");
	print_size(out, "DumpSizeMax", p->dump_size_max, true);
	print_size(out, "MaxUse", p->max_use, conf->max_use_set);
	print_size(out, "KeepFree", p->keep_free, conf->keep_free_set);
	fprintf(out, "FleetStore=%s\nFleetOutbox=%s\n",
		gpurobust_fleet_uri_redact(conf->fleet_store, shown, sizeof(shown)),
		conf->fleet_outbox);
}
