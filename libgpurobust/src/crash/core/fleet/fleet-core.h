/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* The fleet store's pure core: the schema, its migrations and queries as
 * SQL both backends run, and version keys. No I/O. */
#ifndef GPUROBUST_CORE_FLEET_H
#define GPUROBUST_CORE_FLEET_H

#include <stddef.h>
#include <stdint.h>

#include <gpurobust/fleet.h>

/* One schema step: SQL both backends run, then SQL only PostgreSQL runs
 * (roles and grants; NULL when none). Step i turns schema i into i + 1. */
struct grb_fleet_migration {
	const char *sql;
	const char *postgresql_only;
};
extern const struct grb_fleet_migration grb_fleet_migrations[GPUROBUST_FLEET_SCHEMA];

/* What the migrations' own bookkeeping needs, before any step ran. */
extern const char grb_fleet_sql_schema_table[];
extern const char grb_fleet_sql_schema_version[];	/* no row: schema 0 */
extern const char grb_fleet_sql_schema_record[];	/* $1 version, $2 time */

/* Its parameters $1..$N, as grb_fleet_crash_params() fills them; the
 * integer ones are in GRB_FLEET_CRASH_INT_PARAMS (bit i: $i+1). */
#define GRB_FLEET_CRASH_PARAMS 17
#define GRB_FLEET_CRASH_INT_PARAMS (1u << 13)
#define GRB_FLEET_KEY_SIZE 160
extern const char grb_fleet_sql_insert[];
struct grb_fleet_crash_row {
	char kernel_key[GRB_FLEET_KEY_SIZE], driver_key[GRB_FLEET_KEY_SIZE];
	char seen[24];
	const char *params[GRB_FLEET_CRASH_PARAMS];
};
void grb_fleet_crash_params(const struct gpurobust_fleet_crash *crash,
			    struct grb_fleet_crash_row *row);

/* $1 since, $2 until, $3 kernel key or "", $4 driver key or "", $5 limit:
 * integers but $3 and $4 */
extern const char grb_fleet_sql_top[];
/* $1 signature */
extern const char grb_fleet_sql_group[];
extern const char grb_fleet_sql_spread[];
extern const char grb_fleet_sql_count[];

/**
 * grb_fleet_crash_check() - whether a crash may be stored
 * @crash: the crash
 * @field: the first field that is wrong, or NULL
 *
 * The id is 32 and the signature 16 lowercase hex digits, and every text is
 * inert (valid UTF-8, no control bytes): a store keeps nothing that a
 * database's encoding refuses or a triager's terminal acts on.
 *
 * Return: 0 or -EINVAL.
 */
int grb_fleet_crash_check(const struct gpurobust_fleet_crash *crash, const char **field);

/**
 * grb_fleet_version_key() - a version string that sorts as versions do
 * @version: "6.12.10", "26.2.6-1", "7.2.13+"…
 * @key: each run of digits with leading zeros to 10 digits (longer runs as
 *       they are), the rest as it is, cut to fit: compared byte by byte,
 *       keys order versions by their numbers
 * @size: its size, GRB_FLEET_KEY_SIZE
 */
void grb_fleet_version_key(const char *version, char *key, size_t size);

#endif
