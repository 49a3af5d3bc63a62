// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* A fleet crash's id, its checks, its row, its JSON in the outbox and
 * version keys: pure functions of their arguments. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <xxhash.h>

#include <gpurobust/text.h>

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

/* Text that is inert as it is: valid UTF-8 without control bytes, which
 * gpurobust_text_escape() leaves alone but for doubling its backslashes. */
static bool inert(const char *text, size_t size)
{
	char escaped[4 * sizeof(((struct gpurobust_fleet_crash *)0)->title) + 1];
	size_t len = strnlen(text, size), at = 0;

	if (len == size || gpurobust_text_escape(escaped, sizeof(escaped), text) >= sizeof(escaped))
		return false;
	for (size_t i = 0; i < len; i++) {
		if (escaped[at++] != text[i] || (text[i] == '\\' && escaped[at++] != '\\'))
			return false;
	}
	return escaped[at] == '\0';
}

static bool lower_hex(const char *s, size_t digits)
{
	return strlen(s) == digits && strspn(s, "0123456789abcdef") == digits;
}

int grb_fleet_crash_check(const struct gpurobust_fleet_crash *crash, const char **field)
{
	*field = "crash_id";
	if (!lower_hex(crash->crash_id, 32))
		return -EINVAL;
	*field = "signature";
	if (!lower_hex(crash->signature, 16))
		return -EINVAL;
#define CHECK_FIELD(f) \
	*field = #f; \
	if (!inert(crash->f, sizeof(crash->f))) \
		return -EINVAL;
	CRASH_TEXT_FIELDS(CHECK_FIELD)
#undef CHECK_FIELD
	*field = NULL;
	return 0;
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
	const char *field;
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
	if (strcmp(check_id, c.crash_id) || grb_fleet_crash_check(&c, &field))
		return -EBADMSG;
	*crash = c;
	return 0;
}
