// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* A fleet crash's id, its row, its JSON in the outbox, version keys and
 * URIs fit for logs: pure functions of their arguments. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <xxhash.h>

#include "common/export.h"
#include "crash/core/breadcrumbs/json-util.h"
#include "crash/core/fleet/fleet-core.h"

/* The text fields, in the order of the id's encoding and of the JSON. */
#define CRASH_TEXT_FIELDS(X) \
	X(signature) X(title) X(machine_id) X(pci_id) X(family) X(vbios) \
	X(kernel) X(series) X(driver) X(application) X(recovery) X(outcome) \
	X(breadcrumbs)

/* Room for every text field with its NUL, and the time. */
#define CRASH_ENCODING_SIZE (sizeof(struct gpurobust_fleet_crash) + 24)

GPUROBUST_EXPORT
void gpurobust_fleet_crash_id(struct gpurobust_fleet_crash *crash)
{
	char encoding[CRASH_ENCODING_SIZE];
	XXH128_hash_t hash;
	size_t len = 0;

	/* each field with its NUL, so that no two crashes encode alike */
#define ENCODE_FIELD(f) \
	{ \
		size_t n = strnlen(crash->f, sizeof(crash->f) - 1); \
		memcpy(encoding + len, crash->f, n); \
		len += n; \
		encoding[len++] = '\0'; \
	}
	CRASH_TEXT_FIELDS(ENCODE_FIELD)
#undef ENCODE_FIELD
	len += (size_t)snprintf(encoding + len, sizeof(encoding) - len, "%" PRId64, crash->seen);
	hash = XXH3_128bits(encoding, len);
	snprintf(crash->crash_id, sizeof(crash->crash_id), "%016" PRIx64 "%016" PRIx64,
		 (uint64_t)hash.high64, (uint64_t)hash.low64);
}

void grb_fleet_version_key(const char *version, char *key, size_t size)
{
	size_t out = 0;

	if (!size)
		return;
	while (*version && out + 1 < size) {
		size_t digits = strspn(version, "0123456789");

		if (!digits) {
			key[out++] = *version++;
			continue;
		}
		for (size_t pad = digits; pad < 10 && out + 1 < size; pad++)
			key[out++] = '0';
		for (size_t i = 0; i < digits && out + 1 < size; i++)
			key[out++] = version[i];
		version += digits;
	}
	key[out] = '\0';
}

void grb_fleet_crash_params(const struct gpurobust_fleet_crash *crash,
			    struct grb_fleet_crash_row *row)
{
	grb_fleet_version_key(crash->kernel, row->kernel_key, sizeof(row->kernel_key));
	grb_fleet_version_key(crash->driver, row->driver_key, sizeof(row->driver_key));
	snprintf(row->seen, sizeof(row->seen), "%" PRId64, crash->seen);
	row->params[0] = crash->crash_id;
	row->params[1] = crash->signature;
	row->params[2] = crash->title;
	row->params[3] = crash->machine_id;
	row->params[4] = crash->pci_id;
	row->params[5] = crash->family;
	row->params[6] = crash->vbios;
	row->params[7] = crash->kernel;
	row->params[8] = row->kernel_key;
	row->params[9] = crash->series;
	row->params[10] = crash->driver;
	row->params[11] = row->driver_key;
	row->params[12] = crash->application;
	row->params[13] = row->seen;
	row->params[14] = crash->recovery;
	row->params[15] = crash->outcome;
	row->params[16] = crash->breadcrumbs;
}

/* Append @n bytes of @from to @buf at @at, as far as @size leaves room for
 * a NUL; returns the new end. */
static size_t put(char *buf, size_t size, size_t at, const char *from, size_t n)
{
	for (size_t i = 0; i < n && at + 1 < size; i++)
		buf[at++] = from[i];
	return at;
}

GPUROBUST_EXPORT
const char *gpurobust_fleet_uri_redact(const char *uri, char *buf, size_t size)
{
	const char *scheme_end = strstr(uri, "://");
	const char *p = uri;
	size_t at = 0;

	if (!size)
		return buf;
	/* scheme://user:secret@host: the secret */
	if (scheme_end) {
		const char *auth = scheme_end + 3;
		size_t auth_len = strcspn(auth, "/?#");
		const char *at_sign = memchr(auth, '@', auth_len);
		const char *colon = at_sign ? memchr(auth, ':', (size_t)(at_sign - auth)) : NULL;

		if (colon) {
			at = put(buf, size, at, uri, (size_t)(colon + 1 - uri));
			at = put(buf, size, at, "***", 3);
			p = at_sign;
		}
	}
	/* password=secret (and sslpassword=), in a URI's query or in key=value
	 * form, where a value may be quoted */
	while (*p) {
		bool boundary = p == uri || strchr("?& \t", p[-1]);
		size_t key_len = !boundary ? 0 :
				 !strncmp(p, "password=", 9) ? 9 :
				 !strncmp(p, "sslpassword=", 12) ? 12 : 0;

		if (key_len) {
			at = put(buf, size, at, p, key_len);
			at = put(buf, size, at, "***", 3);
			p += key_len;
			if (*p == '\'') {
				const char *close = strchr(p + 1, '\'');

				p = close ? close + 1 : p + strlen(p);
			} else {
				p += strcspn(p, "& \t");
			}
			continue;
		}
		at = put(buf, size, at, p++, 1);
	}
	buf[at] = '\0';
	return buf;
}

GPUROBUST_EXPORT
char *gpurobust_fleet_crash_to_json(const struct gpurobust_fleet_crash *crash)
{
	json_object *o = json_object_new_object();
	char *text = NULL;
	int err = !o;

	if (!err)
		err |= json_object_object_add(o, "crash_id",
					      json_object_new_string(crash->crash_id));
#define ADD_FIELD(f) \
	if (!err) \
		err |= json_object_object_add(o, #f, json_object_new_string(crash->f));
	CRASH_TEXT_FIELDS(ADD_FIELD)
#undef ADD_FIELD
	if (!err)
		err |= json_object_object_add(o, "seen", json_object_new_int64(crash->seen));
	if (!err)
		text = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return text;
}

/* A string member that fits @size with its NUL. */
static int get_text(json_object *o, const char *name, char *out, size_t size)
{
	json_object *m;
	const char *s;
	size_t len;

	if (!json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_string))
		return -EBADMSG;
	s = json_object_get_string(m);
	len = (size_t)json_object_get_string_len(m);
	if (len >= size || memchr(s, '\0', len))
		return -EBADMSG;
	memcpy(out, s, len + 1);
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_fleet_crash_from_json(const char *json, size_t len,
				    struct gpurobust_fleet_crash *crash)
{
	struct gpurobust_fleet_crash c = { 0 };
	char check_id[sizeof(c.crash_id)];
	json_object *root;
	int r = grb_bc_json_parse(json, len, 4, &root);

	if (r)
		return r == -ENOMEM ? r : -EBADMSG;
	r = json_object_is_type(root, json_type_object) ? 0 : -EBADMSG;
	if (!r)
		r = get_text(root, "crash_id", c.crash_id, sizeof(c.crash_id));
#define GET_FIELD(f) \
	if (!r) \
		r = get_text(root, #f, c.f, sizeof(c.f));
	CRASH_TEXT_FIELDS(GET_FIELD)
#undef GET_FIELD
	if (!r)
		r = grb_bc_json_get_int(root, "seen", INT64_MIN, INT64_MAX, &c.seen) ? -EBADMSG : 0;
	json_object_put(root);
	if (r)
		return r;
	/* a file whose content is not the crash its id names was altered */
	memcpy(check_id, c.crash_id, sizeof(check_id));
	gpurobust_fleet_crash_id(&c);
	if (strcmp(check_id, c.crash_id))
		return -EBADMSG;
	*crash = c;
	return 0;
}
