// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Kernel log lines around an amdgpu hang.
 *
 * Each line is matched on the message text alone, wherever it starts, so the
 * same code reads dmesg ("[   87.85] amdgpu 0000:45:00.0: amdgpu: ..."),
 * journalctl -k and /dev/kmsg records. The message formats are those of
 * amdgpu_job.c, amdgpu_device.c, gmc_v9_0.c, gmc_v10_0.c, gmc_v11_0.c and the
 * gfxhub/mmhub fault printers in Linux 6.12, plus the ring-reset and
 * wedged-device lines of later kernels.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/coredump.h>

#include "common/export.h"
#include "crash/core/coredump/text.h"

struct dmesg_parser {
	struct gpurobust_dmesg *log;
	size_t cap;
	/* The last page-fault line, so that the lines after it attach to it. */
	bool in_fault;
};

static bool take_u32_dec(struct span *s, uint32_t *out)
{
	int64_t v;

	if (!take_dec(s, &v) || v < 0 || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool take_i32_dec(struct span *s, int32_t *out)
{
	int64_t v;

	if (!take_dec(s, &v) || v < INT32_MIN || v > INT32_MAX)
		return false;
	*out = (int32_t)v;
	return true;
}

/* "process X pid N thread Y pid M" and its variants; the name may not hold
 * blanks in any of the printers (task comm is one word in practice). */
static bool take_task(struct span s, struct gpurobust_dmesg_event *ev)
{
	if (!take_word(&s, ' ', ev->process, sizeof(ev->process)) ||
	    !take_lit(&s, " pid ") || !take_i32_dec(&s, &ev->pid))
		return false;
	if (take_lit(&s, " thread ") && take_word(&s, ' ', ev->thread, sizeof(ev->thread)) &&
	    take_lit(&s, " pid "))
		take_i32_dec(&s, &ev->tid);
	return true;
}

/* "ring gfx_0.0.0 timeout, ..." */
static bool match_ring_timeout(struct span line, struct gpurobust_dmesg_event *ev)
{
	struct span s;

	if (!span_after(line, "ring ", &s) || !span_find(s, " timeout"))
		return false;
	/* "ring " also occurs inside other messages: take the one that
	 * is followed by "<name> timeout" */
	do {
		struct span t = s;

		if (take_word(&t, ',', ev->ring, sizeof(ev->ring)) && take_lit(&t, " timeout")) {
			if (take_lit(&t, ", but soft recovered")) {
				ev->kind = GPUROBUST_DMESG_SOFT_RECOVERED;
				return true;
			}
			if (take_lit(&t, ", signaled seq=") && take_u32_dec(&t, &ev->signaled_seq) &&
			    take_lit(&t, ", emitted seq=") && take_u32_dec(&t, &ev->emitted_seq)) {
				ev->kind = GPUROBUST_DMESG_RING_TIMEOUT;
				return true;
			}
		}
	} while (span_after(s, "ring ", &s));
	return false;
}

/* "[gfxhub] page fault (src_id:0 ring:24 vmid:3 pasid:32773)" and gmc_v9's
 * "[gfxhub0] retry page fault (...)" / "no-retry page fault". */
static bool match_page_fault(struct span line, struct gpurobust_dmesg_event *ev)
{
	const char *at = span_find(line, "page fault (src_id:");
	struct span s, hub;

	if (!at)
		return false;
	/* walk back to the "[hub]" before it */
	hub.p = line.p;
	hub.n = (size_t)(at - line.p);
	while (hub.n && hub.p[hub.n - 1] != '[')
		hub.n--;
	if (!hub.n)
		return false;
	s = span_skip(line, hub.n);
	if (!take_word(&s, ']', ev->hub, sizeof(ev->hub)) || !take_lit(&s, "] "))
		return false;
	ev->retry = take_lit(&s, "retry ");
	take_lit(&s, "no-retry ");
	if (!take_lit(&s, "page fault (src_id:") || !take_u32_dec(&s, &ev->src_id) ||
	    !take_lit(&s, " ring:") || !take_u32_dec(&s, &ev->ring_id) ||
	    !take_lit(&s, " vmid:") || !take_u32_dec(&s, &ev->vmid) ||
	    !take_lit(&s, " pasid:") || !take_u32_dec(&s, &ev->pasid))
		return false;
	ev->kind = GPUROBUST_DMESG_PAGE_FAULT;
	return true;
}

/* "  in page starting at address 0x... from client 0x1b (UTCL2)",
 * "from client 10" (gmc_v11), "from IH client 0x1b (UTCL2)" (gmc_v9). */
static bool match_fault_address(struct span line, struct gpurobust_dmesg_event *ev)
{
	struct span s;
	uint64_t v;
	int64_t d;

	if (!span_after(line, "in page starting at address ", &s) || !take_hex(&s, &ev->addr))
		return false;
	ev->kind = GPUROBUST_DMESG_FAULT_ADDRESS;
	if (!take_lit(&s, " from "))
		return true;
	take_lit(&s, "IH ");
	if (!take_lit(&s, "client "))
		return true;
	if (span_starts(s, "0x")) {
		if (take_hex(&s, &v) && v <= UINT32_MAX)
			ev->client_id = (uint32_t)v;
	} else if (take_dec(&s, &d) && d >= 0 && d <= UINT32_MAX) {
		ev->client_id = (uint32_t)d;
	}
	if (take_lit(&s, " ("))
		take_word(&s, ')', ev->client, sizeof(ev->client));
	return true;
}

static const char *const fault_fields[] = {
	"MORE_FAULTS", "WALKER_ERROR", "PERMISSION_FAULTS", "MAPPING_ERROR", "RW",
};

/* The decoded protection-fault status lines printed after a fault. */
static bool match_fault_detail(struct span line, struct gpurobust_dmesg_event *ev)
{
	struct span s;
	uint64_t v;

	if (span_after(line, "_L2_PROTECTION_FAULT_STATUS:", &s)) {
		if (!take_hex(&s, &v) || v > UINT32_MAX)
			return false;
		ev->kind = GPUROBUST_DMESG_FAULT_STATUS;
		ev->status = (uint32_t)v;
		return true;
	}
	if (span_after(line, "Faulty UTCL2 client ID: ", &s)) {
		ev->kind = GPUROBUST_DMESG_FAULT_FIELD;
		strcpy(ev->field, "CID");
		take_word(&s, '(', ev->client, sizeof(ev->client));
		skip_blanks(&s);
		if (take_lit(&s, "(") && take_hex(&s, &v) && v <= UINT32_MAX)
			ev->value = (uint32_t)v;
		return true;
	}
	for (size_t i = 0; i < sizeof(fault_fields) / sizeof(fault_fields[0]); i++) {
		struct span t = span_trim(line);
		size_t n = strlen(fault_fields[i]);
		const char *at = span_find(t, fault_fields[i]);

		/* the field name must follow a tab or blank, and end with ": " */
		if (!at || (at > t.p && at[-1] != '\t' && at[-1] != ' '))
			continue;
		s = span_skip(t, (size_t)(at - t.p) + n);
		if (!take_lit(&s, ": ") || !take_hex(&s, &v) || v > UINT32_MAX || s.n)
			continue;
		ev->kind = GPUROBUST_DMESG_FAULT_FIELD;
		strcpy(ev->field, fault_fields[i]);
		ev->value = (uint32_t)v;
		return true;
	}
	return false;
}

static bool match_reset(struct span line, struct gpurobust_dmesg_event *ev)
{
	struct span s;
	int64_t n;

	if (span_after(line, "Starting ", &s) && take_word(&s, ' ', ev->ring, sizeof(ev->ring)) &&
	    take_lit(&s, " ring reset")) {
		ev->kind = GPUROBUST_DMESG_RING_RESET_BEGIN;
		return true;
	}
	if (span_after(line, "Ring ", &s) && take_word(&s, ' ', ev->ring, sizeof(ev->ring)) &&
	    take_lit(&s, " reset ")) {
		if (take_lit(&s, "succeeded") || take_lit(&s, "succeed")) {
			ev->ok = true;
		} else if (!take_lit(&s, "failed")) {
			return false;
		}
		ev->kind = GPUROBUST_DMESG_RING_RESET_DONE;
		return true;
	}
	if (span_find(line, "GPU reset begin!")) {
		ev->kind = GPUROBUST_DMESG_GPU_RESET_BEGIN;
		return true;
	}
	if (span_after(line, "GPU reset(", &s) && take_dec(&s, &n) && take_lit(&s, ") ")) {
		ev->ok = take_lit(&s, "succeeded");
		if (!ev->ok && !take_lit(&s, "failed"))
			return false;
		ev->kind = GPUROBUST_DMESG_GPU_RESET_DONE;
		return true;
	}
	if (span_find(line, "GPU reset succeeded, trying to resume")) {
		ev->kind = GPUROBUST_DMESG_GPU_RESET_DONE;
		ev->ok = true;
		return true;
	}
	if (span_find(line, "GPU Recovery Failed: ")) {
		ev->kind = GPUROBUST_DMESG_GPU_RESET_DONE;
		return true;
	}
	if (span_find(line, "VRAM is lost due to GPU reset!")) {
		ev->kind = GPUROBUST_DMESG_VRAM_LOST;
		return true;
	}
	if (span_find(line, "device coredump file has been created")) {
		ev->kind = GPUROBUST_DMESG_COREDUMP;
		return true;
	}
	if (span_find(line, "device wedged, but recovered through reset")) {
		ev->kind = GPUROBUST_DMESG_WEDGED;
		return true;
	}
	return false;
}

/* The process lines: after a timeout (6.12 "Process information: process X
 * pid N thread Y pid M", later " Process X pid N thread Y pid M"), or after
 * a page fault (" in process", " for process", " Process"). */
static bool match_process(struct dmesg_parser *p, struct span line,
			  struct gpurobust_dmesg_event *ev)
{
	struct span s;

	if (span_after(line, "Process information: process ", &s) ||
	    span_after(line, " Process ", &s) || span_after(line, " in process ", &s) ||
	    span_after(line, " for process ", &s)) {
		if (!take_task(s, ev))
			return false;
		ev->kind = p->in_fault ? GPUROBUST_DMESG_FAULT_PROCESS : GPUROBUST_DMESG_PROCESS;
		return true;
	}
	return false;
}

static void fold(struct gpurobust_dmesg *log, const struct gpurobust_dmesg_event *ev)
{
	switch (ev->kind) {
	case GPUROBUST_DMESG_RING_TIMEOUT:
	case GPUROBUST_DMESG_SOFT_RECOVERED:
		/* a new hang: the summary describes the last one */
		log->timeout = true;
		memcpy(log->ring, ev->ring, sizeof(log->ring));
		log->signaled_seq = ev->signaled_seq;
		log->emitted_seq = ev->emitted_seq;
		log->process[0] = log->thread[0] = '\0';
		log->pid = log->tid = 0;
		log->vram_lost = false;
		if (ev->kind == GPUROBUST_DMESG_SOFT_RECOVERED) {
			log->recovery = GPUROBUST_RECOVERY_SOFT;
			log->outcome = GPUROBUST_OUTCOME_RECOVERED;
		} else {
			log->recovery = GPUROBUST_RECOVERY_UNKNOWN;
			log->outcome = GPUROBUST_OUTCOME_PENDING;
		}
		break;
	case GPUROBUST_DMESG_PROCESS:
		memcpy(log->process, ev->process, sizeof(log->process));
		memcpy(log->thread, ev->thread, sizeof(log->thread));
		log->pid = ev->pid;
		log->tid = ev->tid;
		break;
	case GPUROBUST_DMESG_RING_RESET_BEGIN:
		log->recovery = GPUROBUST_RECOVERY_RING;
		log->outcome = GPUROBUST_OUTCOME_PENDING;
		break;
	case GPUROBUST_DMESG_RING_RESET_DONE:
		log->recovery = GPUROBUST_RECOVERY_RING;
		log->outcome = ev->ok ? GPUROBUST_OUTCOME_RECOVERED : GPUROBUST_OUTCOME_FAILED;
		break;
	case GPUROBUST_DMESG_GPU_RESET_BEGIN:
		log->recovery = GPUROBUST_RECOVERY_FULL;
		log->outcome = GPUROBUST_OUTCOME_PENDING;
		break;
	case GPUROBUST_DMESG_GPU_RESET_DONE:
		log->recovery = GPUROBUST_RECOVERY_FULL;
		log->outcome = ev->ok ? GPUROBUST_OUTCOME_RECOVERED : GPUROBUST_OUTCOME_FAILED;
		break;
	case GPUROBUST_DMESG_WEDGED:
		if (log->outcome == GPUROBUST_OUTCOME_PENDING)
			log->outcome = GPUROBUST_OUTCOME_RECOVERED;
		break;
	case GPUROBUST_DMESG_VRAM_LOST:
		log->vram_lost = true;
		break;
	case GPUROBUST_DMESG_PAGE_FAULT:
		log->fault = true;
		memcpy(log->fault_hub, ev->hub, sizeof(log->fault_hub));
		log->fault_vmid = ev->vmid;
		log->fault_pasid = ev->pasid;
		log->fault_process[0] = '\0';
		log->fault_pid = 0;
		log->fault_addr = 0;
		log->fault_status = 0;
		log->fault_status_known = false;
		log->fault_client[0] = '\0';
		log->more_faults = log->walker_error = log->permission_faults = 0;
		log->mapping_error = log->rw = 0;
		break;
	case GPUROBUST_DMESG_FAULT_PROCESS:
		memcpy(log->fault_process, ev->process, sizeof(log->fault_process));
		log->fault_pid = ev->pid;
		break;
	case GPUROBUST_DMESG_FAULT_ADDRESS:
		log->fault_addr = ev->addr;
		if (ev->client[0])
			memcpy(log->fault_client, ev->client, sizeof(log->fault_client));
		break;
	case GPUROBUST_DMESG_FAULT_STATUS:
		log->fault_status = ev->status;
		log->fault_status_known = true;
		break;
	case GPUROBUST_DMESG_FAULT_FIELD:
		if (!strcmp(ev->field, "CID"))
			memcpy(log->fault_client, ev->client, sizeof(log->fault_client));
		else if (!strcmp(ev->field, "MORE_FAULTS"))
			log->more_faults = ev->value;
		else if (!strcmp(ev->field, "WALKER_ERROR"))
			log->walker_error = ev->value;
		else if (!strcmp(ev->field, "PERMISSION_FAULTS"))
			log->permission_faults = ev->value;
		else if (!strcmp(ev->field, "MAPPING_ERROR"))
			log->mapping_error = ev->value;
		else if (!strcmp(ev->field, "RW"))
			log->rw = ev->value;
		break;
	case GPUROBUST_DMESG_COREDUMP:
		break;
	}
}

static int parse_line(struct dmesg_parser *p, struct span line, size_t lineno)
{
	struct gpurobust_dmesg *log = p->log;
	struct gpurobust_dmesg_event ev = { 0 };
	bool fault_line;

	/* Every message of interest comes from amdgpu or from drm on its
	 * behalf; skip the rest cheaply. */
	if (!span_find(line, "amdgpu") && !span_find(line, "drm") && !p->in_fault)
		return 0;
	if (!match_ring_timeout(line, &ev) && !match_page_fault(line, &ev) &&
	    !match_fault_address(line, &ev) && !match_fault_detail(line, &ev) &&
	    !match_reset(line, &ev) && !match_process(p, line, &ev))
		return 0;

	fault_line = ev.kind == GPUROBUST_DMESG_PAGE_FAULT ||
		     ev.kind == GPUROBUST_DMESG_FAULT_PROCESS ||
		     ev.kind == GPUROBUST_DMESG_FAULT_ADDRESS ||
		     ev.kind == GPUROBUST_DMESG_FAULT_STATUS ||
		     ev.kind == GPUROBUST_DMESG_FAULT_FIELD;
	p->in_fault = fault_line;
	ev.line = lineno;
	if (log->n_events == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 16;
		struct gpurobust_dmesg_event *n = realloc(log->events, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		log->events = n;
		p->cap = ncap;
	}
	log->events[log->n_events++] = ev;
	fold(log, &ev);
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_dmesg_parse(const char *text, size_t len, struct gpurobust_dmesg **out)
{
	struct dmesg_parser p = { 0 };
	struct line_reader r;
	struct span line;

	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	p.log = calloc(1, sizeof(*p.log));
	if (!p.log)
		return -ENOMEM;
	line_reader_init(&r, text ? text : "", len);
	while (line_next(&r, &line)) {
		if (parse_line(&p, line, r.lineno)) {
			gpurobust_dmesg_free(p.log);
			return -ENOMEM;
		}
	}
	*out = p.log;
	return 0;
}

GPUROBUST_EXPORT
void gpurobust_dmesg_free(struct gpurobust_dmesg *log)
{
	if (!log)
		return;
	free(log->events);
	free(log);
}

GPUROBUST_EXPORT
const char *gpurobust_dmesg_kind_name(enum gpurobust_dmesg_kind kind)
{
	switch (kind) {
	case GPUROBUST_DMESG_RING_TIMEOUT: return "ring_timeout";
	case GPUROBUST_DMESG_SOFT_RECOVERED: return "soft_recovered";
	case GPUROBUST_DMESG_PROCESS: return "process";
	case GPUROBUST_DMESG_PAGE_FAULT: return "page_fault";
	case GPUROBUST_DMESG_FAULT_PROCESS: return "fault_process";
	case GPUROBUST_DMESG_FAULT_ADDRESS: return "fault_address";
	case GPUROBUST_DMESG_FAULT_STATUS: return "fault_status";
	case GPUROBUST_DMESG_FAULT_FIELD: return "fault_field";
	case GPUROBUST_DMESG_RING_RESET_BEGIN: return "ring_reset_begin";
	case GPUROBUST_DMESG_RING_RESET_DONE: return "ring_reset_done";
	case GPUROBUST_DMESG_GPU_RESET_BEGIN: return "gpu_reset_begin";
	case GPUROBUST_DMESG_GPU_RESET_DONE: return "gpu_reset_done";
	case GPUROBUST_DMESG_VRAM_LOST: return "vram_lost";
	case GPUROBUST_DMESG_COREDUMP: return "coredump";
	case GPUROBUST_DMESG_WEDGED: return "wedged";
	}
	return "invalid";
}
