// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The fleet store's schema and queries, one SQL text for SQLite and
 * PostgreSQL: parameters are $N (the SQLite backend binds them as ?N),
 * types are the ones both know, and conflicts are resolved with ON
 * CONFLICT, which both have (SQLite since 3.24).
 *
 * Never edit a step that has shipped: a change of the schema is a new step
 * at the end and GPUROBUST_FLEET_SCHEMA one higher.
 */
#include "crash/core/fleet/fleet-core.h"

const char grb_fleet_sql_schema_table[] =
	"CREATE TABLE gpurobust_schema ("
	"  version INTEGER NOT NULL PRIMARY KEY,"
	"  applied BIGINT NOT NULL)";
const char grb_fleet_sql_schema_version[] =
	"SELECT COALESCE(MAX(version), 0) FROM gpurobust_schema";
const char grb_fleet_sql_schema_record[] =
	"INSERT INTO gpurobust_schema (version, applied) VALUES ($1, $2)";

const struct grb_fleet_migration grb_fleet_migrations[GPUROBUST_FLEET_SCHEMA] = {
	/* 0 -> 1: the crashes, and the roles that may send and read them */
	{
		.sql =
		"CREATE TABLE crashes ("
		"  crash_id TEXT PRIMARY KEY,"
		"  signature TEXT NOT NULL,"
		"  title TEXT NOT NULL,"
		"  machine_id TEXT NOT NULL,"
		"  pci_id TEXT NOT NULL,"
		"  family TEXT NOT NULL,"
		"  vbios TEXT NOT NULL,"
		"  kernel TEXT NOT NULL,"
		"  kernel_key TEXT NOT NULL,"
		"  series TEXT NOT NULL,"
		"  driver TEXT NOT NULL,"
		"  driver_key TEXT NOT NULL,"
		"  application TEXT NOT NULL,"
		"  seen BIGINT NOT NULL,"
		"  recovery TEXT NOT NULL,"
		"  outcome TEXT NOT NULL,"
		"  breadcrumbs TEXT NOT NULL);"
		"CREATE INDEX crashes_by_seen ON crashes (seen);"
		"CREATE INDEX crashes_by_signature ON crashes (signature, seen);"
		"CREATE INDEX crashes_by_kernel ON crashes (kernel_key, signature);"
		"CREATE INDEX crashes_by_driver ON crashes (driver_key, signature);",
		/*
		 * Version keys, and the text MAX() picks a group's title and a
		 * GPU's family by, compare byte by byte as SQLite compares
		 * them, whatever the database's locale. The collector role may only add crashes, the triage
		 * role only read them: an administrator grants them to login
		 * roles (Documentation/fleet.md). Both read the schema version,
		 * which every open checks.
		 */
		.postgresql_only =
		"ALTER TABLE crashes ALTER COLUMN kernel_key TYPE TEXT COLLATE \"C\","
		"  ALTER COLUMN driver_key TYPE TEXT COLLATE \"C\","
		"  ALTER COLUMN signature TYPE TEXT COLLATE \"C\","
		"  ALTER COLUMN title TYPE TEXT COLLATE \"C\","
		"  ALTER COLUMN family TYPE TEXT COLLATE \"C\";"
		"DO $$ BEGIN"
		"  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gpurobust_collector') THEN"
		"    CREATE ROLE gpurobust_collector NOLOGIN;"
		"  END IF;"
		"  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gpurobust_triage') THEN"
		"    CREATE ROLE gpurobust_triage NOLOGIN;"
		"  END IF;"
		"END $$;"
		"REVOKE ALL ON crashes, gpurobust_schema FROM PUBLIC;"
		"GRANT SELECT ON gpurobust_schema TO gpurobust_collector, gpurobust_triage;"
		"GRANT INSERT ON crashes TO gpurobust_collector;"
		"GRANT SELECT ON crashes TO gpurobust_triage;",
	},
};

/* No conflict target: with one, PostgreSQL asks for SELECT on its columns,
 * which the collector role does not have. crash_id is the one key. */
const char grb_fleet_sql_insert[] =
	"INSERT INTO crashes (crash_id, signature, title, machine_id, pci_id, family,"
	"  vbios, kernel, kernel_key, series, driver, driver_key, application, seen,"
	"  recovery, outcome, breadcrumbs)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
	" ON CONFLICT DO NOTHING";

/* A group is new since a version when no crash of it shows an older one;
 * crashes that do not know their version do not count. NOT IN, not a
 * correlated NOT EXISTS: PostgreSQL hashes the subquery's groups once
 * instead of probing it for every row (16.7 s against 0.16 s on 200 000
 * crashes, bench/fleet). */
const char grb_fleet_sql_top[] =
	"SELECT signature, MAX(title), COUNT(*), COUNT(DISTINCT machine_id),"
	"  MIN(seen), MAX(seen)"
	" FROM crashes"
	" WHERE seen >= $1 AND seen < $2"
	"  AND ($3 = '' OR signature NOT IN (SELECT signature FROM crashes"
	"    WHERE kernel_key <> '' AND kernel_key < $3))"
	"  AND ($4 = '' OR signature NOT IN (SELECT signature FROM crashes"
	"    WHERE driver_key <> '' AND driver_key < $4))"
	" GROUP BY signature"
	" ORDER BY COUNT(*) DESC, signature"
	" LIMIT $5";

const char grb_fleet_sql_group[] =
	"SELECT signature, MAX(title), COUNT(*), COUNT(DISTINCT machine_id),"
	"  MIN(seen), MAX(seen)"
	" FROM crashes WHERE signature = $1 GROUP BY signature";

const char grb_fleet_sql_spread[] =
	"SELECT pci_id, MAX(family), kernel, driver, COUNT(*), MIN(seen), MAX(seen)"
	" FROM crashes WHERE signature = $1"
	" GROUP BY pci_id, kernel, driver";

const char grb_fleet_sql_count[] = "SELECT COUNT(*) FROM crashes";
