/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/*
 * collect.conf, read the way coredump.conf is: /etc/gpurobust/collect.conf,
 * then every collect.conf.d/ *.conf in name order, later settings winning.
 * An unknown key or a bad value is named on stderr and ignored, so a typo
 * never stops collection.
 */
#ifndef GPUROBUST_TOOLS_COLLECT_CONF_H
#define GPUROBUST_TOOLS_COLLECT_CONF_H

#include <stdbool.h>
#include <stdio.h>

#include <gpurobust/collector.h>

/* From meson: <sysconfdir>/gpurobust, /etc/gpurobust for a /usr build. */
#ifndef GPUROBUST_CONF_DIR
#define GPUROBUST_CONF_DIR "/etc/gpurobust"
#endif

struct collect_conf {
	struct gpurobust_store_policy policy;
	/* FleetStore=: where `gpurobust send` sends the outbox; "": nowhere,
	 * and the collector queues nothing (Documentation/fleet.md) */
	char fleet_store[512];
	char fleet_outbox[256];	/* FleetOutbox= */
	/* MaxUse= and KeepFree= default to 10% and 15% of the store's file
	 * system, at most 4 GiB, as coredump.conf's do, until
	 * collect_conf_resolve() */
	bool max_use_set, keep_free_set;
};

/* Keep dumps, compressed, up to 1 GiB each; limits by default. */
void collect_conf_defaults(struct collect_conf *conf);

/* Apply one file's @text; @source names it in warnings. */
void collect_conf_parse(struct collect_conf *conf, const char *text, const char *source);

/* @dir/collect.conf, then @dir/collect.conf.d/ *.conf, over @conf. A
 * missing file is no error; an unreadable one is named on stderr. */
void collect_conf_load(struct collect_conf *conf, const char *dir);

/* Give the unset limits their share of the file system holding @path. */
void collect_conf_resolve(struct collect_conf *conf, const char *path);

/* The settings in collect.conf's own syntax. */
void collect_conf_print(const struct collect_conf *conf, FILE *out);

#endif
