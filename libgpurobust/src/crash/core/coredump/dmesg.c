// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Kernel log lines around amdgpu hangs and faults.
 *
 * Each line is matched on the message text alone, wherever it starts, so the
 * same code reads dmesg ("[   87.85] amdgpu 0000:45:00.0: amdgpu: ..."),
 * dmesg -T, syslog, journalctl -k in any of its time formats, FreeBSD's
 * "drmn0: ..." and "[drm ERROR :func] ..." lines, and text people quoted or
 * wrapped in other formats. The message formats are those of amdgpu_job.c,
 * amdgpu_device.c and the gmc_v6 to gmc_v12 fault printers from Linux 4.15
 * to 7.1, plus the ring-reset and wedged-device lines of later kernels.
 *
 * A log is read as records: a hang opens on a ring timeout (or on the first
 * reset line of a hang whose timeout the excerpt lost) and collects the
 * process, recovery and VRAM lines that follow on its device; a fault opens
 * on its fault line and collects its detail lines. Lines name their device
 * (a PCI address or drmnN), so two GPUs printing at once keep their records
 * apart; a line that names none belongs to the latest record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/coredump.h>

#include "common/export.h"
#include "crash/core/coredump/text.h"

/* Devices with open records; a log of more GPUs shares the last slot. */
#define MAX_DEVICES 16
#define MAX_DIAGS 64

struct device_state {
	char name[GPUROBUST_NAME_MAX];
	long hang, fault;	/* open records, -1 for none */
	bool fault_last;	/* the device's latest record is the fault */
};

struct dmesg_parser {
	struct gpurobust_dmesg *log;
	size_t events_cap, hangs_cap, faults_cap;
	struct device_state dev[MAX_DEVICES];
	size_t n_dev;
	struct device_state *last;	/* the device of the latest line */
	int oom;
	size_t lineno;
	size_t dropped_diags;
};

static void __attribute__((format(printf, 3, 4)))
diag(struct dmesg_parser *p, enum gpurobust_cd_severity sev, const char *fmt, ...)
{
	struct gpurobust_dmesg *log = p->log;
	struct gpurobust_cd_diag *d;
	va_list ap;

	if (log->n_diags >= MAX_DIAGS) {
		p->dropped_diags++;
		return;
	}
	d = realloc(log->diags, (log->n_diags + 1) * sizeof(*d));
	if (!d) {
		p->oom = 1;
		return;
	}
	log->diags = d;
	d = &log->diags[log->n_diags++];
	d->severity = sev;
	d->line = p->lineno;
	va_start(ap, fmt);
	vsnprintf(d->message, sizeof(d->message), fmt, ap);
	va_end(ap);
}

static void *grow_one(struct dmesg_parser *p, void **arr, size_t n, size_t *cap, size_t size)
{
	if (n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *a = realloc(*arr, ncap * size);

		if (!a) {
			p->oom = 1;
			return NULL;
		}
		*arr = a;
		*cap = ncap;
	}
	memset((char *)*arr + n * size, 0, size);
	return (char *)*arr + n * size;
}

/* A name into a shorter field, cut (the fields are sized for names). */
static void cut_copy(char *dst, size_t size, const char *src)
{
	span_copy((struct span){ src, strlen(src) }, dst, size);
}

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

static bool is_hex(char c)
{
	return hex_digit(c) >= 0;
}

/* The device a line names: the first "DDDD:BB:DD.F:" PCI address, or
 * FreeBSD's "drmnN:". Empty when it names none. */
static void line_device(struct span line, char *out)
{
	out[0] = '\0';
	for (size_t i = 0; i + 13 <= line.n; i++) {
		const char *c = line.p + i;

		if (c[4] == ':' && c[7] == ':' && c[10] == '.' && c[12] == ':' &&
		    c[11] >= '0' && c[11] <= '7' && is_hex(c[0]) && is_hex(c[1]) &&
		    is_hex(c[2]) && is_hex(c[3]) && is_hex(c[5]) && is_hex(c[6]) &&
		    is_hex(c[8]) && is_hex(c[9]) && (i == 0 || c[-1] == ' ')) {
			memcpy(out, c, 12);
			out[12] = '\0';
			return;
		}
	}
	{
		struct span s;

		if (span_after(line, "drmn", &s) && s.n && s.p[0] >= '0' && s.p[0] <= '9') {
			size_t n = 0;

			while (n < s.n && n < 8 && s.p[n] >= '0' && s.p[n] <= '9')
				n++;
			if (n < s.n && s.p[n] == ':')
				snprintf(out, GPUROBUST_NAME_MAX, "drmn%.*s", (int)n, s.p);
		}
	}
}

static struct device_state *device(struct dmesg_parser *p, const char *name)
{
	for (size_t i = 0; i < p->n_dev; i++)
		if (!strcmp(p->dev[i].name, name))
			return &p->dev[i];
	if (p->n_dev == MAX_DEVICES) {
		diag(p, GPUROBUST_CD_NOTE, "more than %d devices: later ones share a slot",
		     MAX_DEVICES);
		return &p->dev[MAX_DEVICES - 1];
	}
	p->dev[p->n_dev] = (struct device_state){ .hang = -1, .fault = -1 };
	snprintf(p->dev[p->n_dev].name, sizeof(p->dev[0].name), "%s", name);
	return &p->dev[p->n_dev++];
}

/* A task name ends at the " pid " that precedes its pid; it may be empty
 * ("process  pid 0", FreeBSD) or hold blanks. Cut to the field size. */
static bool take_name_pid(struct span *s, char *name, int32_t *pid)
{
	struct span t = *s;

	for (size_t i = 0; i + 5 <= t.n; i++) {
		struct span rest;

		if (memcmp(t.p + i, "pid ", 4) || (i && t.p[i - 1] != ' '))
			continue;
		rest = span_skip(t, i + 4);
		if (!take_i32_dec(&rest, pid))
			continue;
		t.n = i ? i - 1 : 0;
		span_copy(t, name, GPUROBUST_NAME_MAX);
		*s = rest;
		return true;
	}
	return false;
}

struct task {
	char process[GPUROBUST_NAME_MAX], thread[GPUROBUST_NAME_MAX];
	int32_t pid, tid;
	bool has_tid;
};

/* "X pid N thread Y pid M"; the thread's pid may be missing (an abridged
 * paste), and gmc_v9/v10 close the text with ")". */
static bool take_task(struct span s, struct task *t)
{
	memset(t, 0, sizeof(*t));
	if (!take_name_pid(&s, t->process, &t->pid))
		return false;
	if (take_lit(&s, " thread ")) {
		if (take_name_pid(&s, t->thread, &t->tid)) {
			t->has_tid = true;
		} else {
			span_copy(span_trim(s), t->thread, sizeof(t->thread));
			if (t->thread[0] && t->thread[strlen(t->thread) - 1] == ')')
				t->thread[strlen(t->thread) - 1] = '\0';
		}
	}
	return true;
}

static struct gpurobust_log_hang *hang_at(struct dmesg_parser *p, long i)
{
	return i < 0 ? NULL : &p->log->hangs[i];
}

static struct gpurobust_log_fault *fault_at(struct dmesg_parser *p, long i)
{
	return i < 0 ? NULL : &p->log->faults[i];
}

/* A hang's recovery is over: later reset lines belong to a new hang. */
static bool hang_done(const struct gpurobust_log_hang *h)
{
	if (h->outcome == GPUROBUST_OUTCOME_RECOVERED)
		return true;
	return h->outcome == GPUROBUST_OUTCOME_FAILED && h->recovery == GPUROBUST_RECOVERY_FULL;
}

static struct gpurobust_log_hang *new_hang(struct dmesg_parser *p, struct device_state *ds,
					   const char *devname)
{
	struct gpurobust_dmesg *log = p->log;
	struct gpurobust_log_hang *h = grow_one(p, (void **)&log->hangs, log->n_hangs,
						&p->hangs_cap, sizeof(*h));

	if (!h)
		return NULL;
	h->line = p->lineno;
	snprintf(h->device, sizeof(h->device), "%s", devname);
	ds->hang = (long)log->n_hangs++;
	ds->fault_last = false;
	return h;
}

/* The open hang a recovery line of @ds belongs to: its own, else one that
 * named no device yet (the old "[drm:amdgpu_job_timedout]" lines carry none),
 * which then takes the device. */
static struct gpurobust_log_hang *open_hang(struct dmesg_parser *p, struct device_state *ds)
{
	struct gpurobust_log_hang *h = hang_at(p, ds->hang);

	if (h || !ds->name[0])
		return h;
	for (size_t i = 0; i < p->n_dev; i++) {
		struct gpurobust_log_hang *o = hang_at(p, p->dev[i].hang);

		if (!p->dev[i].name[0] && o) {
			snprintf(o->device, sizeof(o->device), "%s", ds->name);
			ds->hang = p->dev[i].hang;
			p->dev[i].hang = -1;
			return o;
		}
	}
	return NULL;
}

/* The hang a reset line of @ring belongs to, or a new one when the open
 * hang has finished or is about another ring. */
static struct gpurobust_log_hang *hang_for(struct dmesg_parser *p, struct device_state *ds,
					   const char *ring)
{
	struct gpurobust_log_hang *h = open_hang(p, ds);

	if (h && !hang_done(h) && (!ring || !h->ring[0] || !strcmp(h->ring, ring)))
		return h;
	h = new_hang(p, ds, ds->name);
	if (h && ring)
		snprintf(h->ring, sizeof(h->ring), "%s", ring);
	return h;
}

static struct gpurobust_log_fault *new_fault(struct dmesg_parser *p, struct device_state *ds)
{
	struct gpurobust_dmesg *log = p->log;
	struct gpurobust_log_fault *f = grow_one(p, (void **)&log->faults, log->n_faults,
						 &p->faults_cap, sizeof(*f));

	if (!f)
		return NULL;
	f->line = p->lineno;
	snprintf(f->device, sizeof(f->device), "%s", ds->name);
	ds->fault = (long)log->n_faults++;
	ds->fault_last = true;
	return f;
}

/* The open fault record a detail line continues, or NULL with a
 * diagnostic: the excerpt cut the record's fault line. */
static struct gpurobust_log_fault *fault_detail(struct dmesg_parser *p, struct device_state *ds,
						const char *what)
{
	struct gpurobust_log_fault *f = fault_at(p, ds->fault);

	if (!f)
		diag(p, GPUROBUST_CD_NOTE, "%s without its fault line: skipped", what);
	return f;
}

static void add_event(struct dmesg_parser *p, const struct gpurobust_dmesg_event *ev)
{
	struct gpurobust_dmesg *log = p->log;
	struct gpurobust_dmesg_event *e = grow_one(p, (void **)&log->events, log->n_events,
						   &p->events_cap, sizeof(*e));

	if (!e)
		return;
	*e = *ev;
	e->line = p->lineno;
	log->n_events++;
}

static void set_task_on_hang(struct gpurobust_log_hang *h, const struct task *t)
{
	h->has_process = true;
	memcpy(h->process, t->process, sizeof(h->process));
	memcpy(h->thread, t->thread, sizeof(h->thread));
	h->pid = t->pid;
	h->tid = t->tid;
	h->has_tid = t->has_tid;
}

static void set_task_on_fault(struct gpurobust_log_fault *f, const struct task *t)
{
	f->has_process = true;
	memcpy(f->process, t->process, sizeof(f->process));
	f->pid = t->pid;
	memcpy(f->thread, t->thread, sizeof(f->thread));
	f->tid = t->tid;
	f->has_tid = t->has_tid;
}

static void event_task(struct gpurobust_dmesg_event *ev, const struct task *t)
{
	span_copy((struct span){ t->process, strlen(t->process) }, ev->process, sizeof(ev->process));
	span_copy((struct span){ t->thread, strlen(t->thread) }, ev->thread, sizeof(ev->thread));
	ev->pid = t->pid;
	ev->tid = t->tid;
}

/* "ring gfx_0.0.0 timeout, signaled seq=1, emitted seq=3" and ", but soft
 * recovered". "ring " also occurs inside other messages ("ring gfx_0.0.0
 * uses VM inv eng"), so the one followed by "<name> timeout" counts. */
static bool match_ring_timeout(struct dmesg_parser *p, struct span line, struct device_state *ds)
{
	struct gpurobust_dmesg_event ev = { 0 };
	struct gpurobust_log_hang *h;
	struct span s, t;
	bool soft, seqs;

	if (!span_find(line, " timeout") || !span_after(line, "ring ", &s))
		return false;
	for (;;) {
		t = s;
		if (take_word(&t, ',', ev.ring, sizeof(ev.ring)) && take_lit(&t, " timeout"))
			break;
		if (!span_after(s, "ring ", &s))
			return false;
	}
	soft = take_lit(&t, ", but soft recovered");
	seqs = !soft && take_lit(&t, ", signaled seq=") && take_u32_dec(&t, &ev.signaled_seq) &&
	       take_lit(&t, ", emitted seq=") && take_u32_dec(&t, &ev.emitted_seq);
	if (!soft && !seqs) {
		if (t.n && t.p[0] != ',')
			return false;	/* "ring X timeout" in another message */
		diag(p, GPUROBUST_CD_WARNING, "ring timeout line without its sequence numbers");
	}
	h = new_hang(p, ds, ds->name);
	if (!h)
		return true;
	memcpy(h->ring, ev.ring, sizeof(h->ring));
	h->signaled_seq = ev.signaled_seq;
	h->emitted_seq = ev.emitted_seq;
	if (soft) {
		h->recovery = GPUROBUST_RECOVERY_SOFT;
		h->outcome = GPUROBUST_OUTCOME_RECOVERED;
	}
	ev.kind = soft ? GPUROBUST_DMESG_SOFT_RECOVERED : GPUROBUST_DMESG_RING_TIMEOUT;
	add_event(p, &ev);
	return true;
}

/* The guilty task after a timeout: "Process information: process X pid N
 * thread Y pid M" (to 6.12), " Process X pid N thread Y pid M" (later, and
 * after a fault line), gmc_v10's " in process" and gmc_v9's " for process"
 * after a fault line. */
static bool match_process(struct dmesg_parser *p, struct span line, struct device_state *ds)
{
	struct gpurobust_dmesg_event ev = { 0 };
	bool info = false, fault_only = false;
	struct gpurobust_log_fault *f;
	struct gpurobust_log_hang *h;
	struct span s;
	struct task t;

	if (span_after(line, "Process information: process ", &s))
		info = true;
	else if (span_after(line, " in process ", &s) || span_after(line, " for process ", &s))
		fault_only = true;
	else if (!span_after(line, " Process ", &s) || !span_find(s, "pid "))
		return false;
	if (!take_task(s, &t)) {
		diag(p, GPUROBUST_CD_WARNING, "process line without a pid: skipped");
		return true;
	}
	event_task(&ev, &t);
	f = fault_at(p, ds->fault);
	if (!info && (fault_only || ds->fault_last) && f && !f->has_process) {
		set_task_on_fault(f, &t);
		ev.kind = GPUROBUST_DMESG_FAULT_PROCESS;
	} else if (fault_only) {
		diag(p, GPUROBUST_CD_NOTE, "fault process without its fault line: skipped");
		return true;
	} else {
		h = open_hang(p, ds);
		if (!h || h->has_process)
			h = new_hang(p, ds, ds->name);
		if (!h)
			return true;
		set_task_on_hang(h, &t);
		ds->fault_last = false;
		ev.kind = GPUROBUST_DMESG_PROCESS;
	}
	add_event(p, &ev);
	return true;
}

/* "(src_id:0 ring:24 vmid:3 pasid:32773" and 4.15's "vm_id:" / "pas_id:". */
static void take_fault_ids(struct span *s, struct gpurobust_dmesg_event *ev)
{
	if (take_lit(s, "src_id:"))
		take_u32_dec(s, &ev->src_id);
	if (take_lit(s, " ring:"))
		take_u32_dec(s, &ev->ring_id);
	if (take_lit(s, " vmid:") || take_lit(s, " vm_id:"))
		take_u32_dec(s, &ev->vmid);
	if (take_lit(s, " pasid:") || take_lit(s, " pas_id:"))
		take_u32_dec(s, &ev->pasid);
}

/* "[gfxhub] page fault (src_id:0 ring:24 vmid:3 pasid:32773)", gmc_v9's
 * "[gfxhub0] retry page fault (...)" and "no-retry page fault", 4.15's
 * "[mmhub] VMC page fault (...)"; the task may follow inline, ", for process
 * X pid N thread Y pid M)". */
static bool match_page_fault(struct dmesg_parser *p, struct span line, struct device_state *ds)
{
	struct gpurobust_dmesg_event ev = { 0 };
	struct gpurobust_log_fault *f;
	const char *at = span_find(line, "page fault (");
	struct span s, hub, rest;
	struct task t;

	if (!at)
		return false;
	hub.p = line.p;
	hub.n = (size_t)(at - line.p);
	while (hub.n && hub.p[hub.n - 1] != '[')
		hub.n--;
	if (!hub.n)
		return false;
	s = span_skip(line, hub.n);
	if (!take_word(&s, ']', ev.hub, sizeof(ev.hub)) || !take_lit(&s, "] "))
		return false;
	ev.retry = take_lit(&s, "retry ");
	if (!take_lit(&s, "no-retry "))
		take_lit(&s, "VMC ");
	if (!take_lit(&s, "page fault ("))
		return false;
	rest = s;
	take_fault_ids(&s, &ev);
	ev.kind = GPUROBUST_DMESG_PAGE_FAULT;
	f = new_fault(p, ds);
	if (!f)
		return true;
	memcpy(f->hub, ev.hub, sizeof(f->hub));
	f->retry = ev.retry;
	f->vmid = ev.vmid;
	f->pasid = ev.pasid;
	if (span_after(rest, ", for process ", &s) && take_task(s, &t)) {
		set_task_on_fault(f, &t);
		event_task(&ev, &t);
	}
	add_event(p, &ev);
	return true;
}

/* The device's latest fault is a GCN block whose decode line has not come. */
static bool gcn_fault_waits(struct dmesg_parser *p, const struct device_state *ds)
{
	const struct gpurobust_log_fault *f = fault_at(p, ds->fault);

	return f && f->layout == GPUROBUST_FAULT_LAYOUT_GCN && !f->client[0];
}

/* GCN: "GPU fault detected: 146 0x0000480c for process X pid N thread Y
 * pid M", then VM_CONTEXT1_PROTECTION_FAULT_ADDR and _STATUS, then
 * "VM fault (0x0c, vmid 1, pasid 32784) at page 0, read from 'TC4'
 * (0x54433400) (72)". The last line also stands alone when the excerpt cut
 * the rest: it names the page and the client. */
static bool match_gcn_fault(struct dmesg_parser *p, struct span line, struct device_state *ds)
{
	struct gpurobust_dmesg_event ev = { 0 };
	struct gpurobust_log_fault *f;
	struct span s;
	uint64_t v;
	int64_t page;
	struct task t;

	if (span_after(line, "GPU fault detected: ", &s)) {
		f = new_fault(p, ds);
		if (!f)
			return true;
		f->layout = GPUROBUST_FAULT_LAYOUT_GCN;
		if (span_after(s, " for process ", &s) && take_task(s, &t)) {
			set_task_on_fault(f, &t);
			event_task(&ev, &t);
		}
		ev.kind = GPUROBUST_DMESG_PAGE_FAULT;
		add_event(p, &ev);
		return true;
	}
	if (span_after(line, "VM_CONTEXT1_PROTECTION_FAULT_ADDR", &s)) {
		skip_blanks(&s);
		f = fault_detail(p, ds, "fault address");
		if (f && take_hex(&s, &v) && v <= UINT32_MAX) {
			f->addr = v << 12;	/* the register holds the page number */
			f->has_addr = true;
			ev.kind = GPUROBUST_DMESG_FAULT_ADDRESS;
			ev.addr = f->addr;
			add_event(p, &ev);
		} else if (f) {
			diag(p, GPUROBUST_CD_WARNING, "unreadable fault address");
		}
		return true;
	}
	if (span_after(line, "VM_CONTEXT1_PROTECTION_FAULT_STATUS", &s)) {
		skip_blanks(&s);
		f = fault_detail(p, ds, "fault status");
		if (f && take_hex(&s, &v) && v <= UINT32_MAX) {
			f->status = (uint32_t)v;
			f->has_status = true;
			f->layout = GPUROBUST_FAULT_LAYOUT_GCN;
			ev.kind = GPUROBUST_DMESG_FAULT_STATUS;
			ev.status = f->status;
			add_event(p, &ev);
		} else if (f) {
			diag(p, GPUROBUST_CD_WARNING, "unreadable fault status");
		}
		return true;
	}
	if (!span_after(line, "VM fault (0x", &s) || !span_after(s, ") at page ", &s) ||
	    !take_dec(&s, &page) || page < 0 || page > UINT32_MAX)
		return false;
	f = fault_at(p, ds->fault);
	if (!f || f->layout != GPUROBUST_FAULT_LAYOUT_GCN || f->client[0]) {
		f = new_fault(p, ds);
		if (!f)
			return true;
		f->layout = GPUROBUST_FAULT_LAYOUT_GCN;
		ev.kind = GPUROBUST_DMESG_PAGE_FAULT;
	} else {
		ev.kind = GPUROBUST_DMESG_FAULT_FIELD;
		strcpy(ev.field, "CID");
	}
	if (!f->has_addr) {
		f->addr = (uint64_t)page << 12;
		f->has_addr = true;
	}
	f->write = take_lit(&s, ", write");
	if (span_after(s, " '", &s))
		take_word(&s, '\'', f->client, sizeof(f->client));
	cut_copy(ev.client, sizeof(ev.client), f->client);
	ev.addr = f->addr;
	add_event(p, &ev);
	return true;
}

/* "  in page starting at address 0x... from client 0x1b (UTCL2)",
 * "from client 10" (gmc_v11), "from IH client 0x1b (UTCL2)" (gmc_v9),
 * 4.15's "  at page 0x... from 27". */
static bool match_fault_address(struct dmesg_parser *p, struct span line,
				struct device_state *ds)
{
	struct gpurobust_dmesg_event ev = { 0 };
	struct gpurobust_log_fault *f;
	struct span s;
	uint64_t v;
	int64_t d;

	if (!span_after(line, "in page starting at address ", &s) &&
	    !span_after(line, "  at page 0x", &s))
		return false;
	if (!take_hex(&s, &ev.addr)) {
		diag(p, GPUROBUST_CD_WARNING, "unreadable fault address");
		return true;
	}
	ev.kind = GPUROBUST_DMESG_FAULT_ADDRESS;
	if (take_lit(&s, " from ")) {
		take_lit(&s, "IH ");
		take_lit(&s, "client ");
		if (span_starts(s, "0x")) {
			if (take_hex(&s, &v) && v <= UINT32_MAX)
				ev.client_id = (uint32_t)v;
		} else if (take_dec(&s, &d) && d >= 0 && d <= UINT32_MAX) {
			ev.client_id = (uint32_t)d;
		}
		if (take_lit(&s, " ("))
			take_word(&s, ')', ev.client, sizeof(ev.client));
	}
	f = fault_detail(p, ds, "fault address");
	if (!f)
		return true;
	if (f->has_addr) {
		diag(p, GPUROBUST_CD_NOTE, "second fault address of one record: skipped");
		return true;
	}
	f->addr = ev.addr;
	f->has_addr = true;
	if (ev.client[0] && !f->client[0])
		snprintf(f->client, sizeof(f->client), "%s", ev.client);
	add_event(p, &ev);
	return true;
}

static const char *const fault_fields[] = {
	"MORE_FAULTS", "WALKER_ERROR", "PERMISSION_FAULTS", "MAPPING_ERROR", "RW",
};

/* The status register, written with or without a blank after its colon
 * ("GCVM_L2_PROTECTION_FAULT_STATUS:0x00401031"), and the fields gmc_v9 to
 * v11 decode from it, each after a tab, blanks or both. */
static bool match_fault_detail(struct dmesg_parser *p, struct span line,
			       struct device_state *ds)
{
	struct gpurobust_dmesg_event ev = { 0 };
	struct gpurobust_log_fault *f;
	struct span s, t;
	uint64_t v;

	if (span_after(line, "_L2_PROTECTION_FAULT_STATUS", &s)) {
		bool lo32 = take_lit(&s, "_LO32");

		if (!take_lit(&s, ":"))
			return false;
		skip_blanks(&s);
		if (!take_hex(&s, &v) || v > UINT32_MAX) {
			diag(p, GPUROBUST_CD_WARNING, "unreadable fault status");
			return true;
		}
		f = fault_detail(p, ds, "fault status");
		if (!f)
			return true;
		if (f->has_status) {
			/* the next record's status: its fault line was cut */
			diag(p, GPUROBUST_CD_NOTE, "second fault status of one record: skipped");
			ds->fault = -1;
			return true;
		}
		f->status = (uint32_t)v;
		f->has_status = true;
		f->layout = lo32 ? GPUROBUST_FAULT_LAYOUT_UNKNOWN : GPUROBUST_FAULT_LAYOUT_GFX9;
		ev.kind = GPUROBUST_DMESG_FAULT_STATUS;
		ev.status = f->status;
		add_event(p, &ev);
		return true;
	}
	if (span_after(line, "Faulty UTCL2 client ID: ", &s)) {
		/* "TCP (0x8)", "SQC (inst) (0x9)", "CB/DB (0x0)", or "0x0" alone */
		const char *paren = NULL;

		for (const char *c = s.p; (c = memmem(c, (size_t)(s.p + s.n - c), " (0x", 4)); c++)
			paren = c;
		ev.kind = GPUROBUST_DMESG_FAULT_FIELD;
		strcpy(ev.field, "CID");
		if (paren) {
			t = (struct span){ s.p, (size_t)(paren - s.p) };
			span_copy(span_trim(t), ev.client, sizeof(ev.client));
			t = span_skip(s, (size_t)(paren - s.p) + 2);
		} else {
			t = s;
		}
		if (take_hex(&t, &v) && v <= UINT32_MAX)
			ev.value = (uint32_t)v;
		f = fault_detail(p, ds, "fault client");
		if (!f)
			return true;
		if (ev.client[0])
			snprintf(f->client, sizeof(f->client), "%s", ev.client);
		add_event(p, &ev);
		return true;
	}
	for (size_t i = 0; i < sizeof(fault_fields) / sizeof(fault_fields[0]); i++) {
		struct span tr = span_trim(line);
		size_t n = strlen(fault_fields[i]);
		const char *at = span_find(tr, fault_fields[i]);

		/* the field name follows a tab or blank and ends with ": " */
		if (!at || at == tr.p || (at[-1] != '\t' && at[-1] != ' '))
			continue;
		s = span_skip(tr, (size_t)(at - tr.p) + n);
		if (!take_lit(&s, ": ") || !take_hex(&s, &v) || v > UINT32_MAX || s.n)
			continue;
		ev.kind = GPUROBUST_DMESG_FAULT_FIELD;
		strcpy(ev.field, fault_fields[i]);
		ev.value = (uint32_t)v;
		f = fault_detail(p, ds, "fault field");
		if (!f)
			return true;
		if (!strcmp(ev.field, "RW"))
			f->write = v != 0;
		add_event(p, &ev);
		return true;
	}
	return false;
}

/* The reset methods amdgpu_device.c and the SMU print during a full reset. */
static const char *const reset_methods[] = {
	"MODE1 reset", "MODE2 reset", "BACO reset", "GPU pci config reset", "GPU mode1 reset",
	"GPU smu mode1 reset", "GPU mode2 reset",
};

/* The hang a line of a full reset belongs to: the open one, unless that
 * one already recovered without a full reset. */
static struct gpurobust_log_hang *full_reset(struct dmesg_parser *p, struct device_state *ds)
{
	struct gpurobust_log_hang *h = open_hang(p, ds);

	if (!h || (hang_done(h) && h->recovery != GPUROBUST_RECOVERY_FULL))
		h = new_hang(p, ds, ds->name);
	if (h && h->recovery != GPUROBUST_RECOVERY_FULL) {
		h->recovery = GPUROBUST_RECOVERY_FULL;
		h->outcome = GPUROBUST_OUTCOME_PENDING;
	}
	return h;
}

static bool match_reset(struct dmesg_parser *p, struct span line, struct device_state *ds)
{
	struct gpurobust_dmesg_event ev = { 0 };
	struct gpurobust_log_hang *h;
	struct span s;
	int64_t n;

	if (span_after(line, "Starting ", &s) && take_word(&s, ' ', ev.ring, sizeof(ev.ring)) &&
	    take_lit(&s, " ring reset")) {
		ev.kind = GPUROBUST_DMESG_RING_RESET_BEGIN;
		h = hang_for(p, ds, ev.ring);
		if (h) {
			h->recovery = GPUROBUST_RECOVERY_RING;
			h->outcome = GPUROBUST_OUTCOME_PENDING;
		}
	} else if (span_after(line, "Ring ", &s) && take_word(&s, ' ', ev.ring, sizeof(ev.ring)) &&
		   take_lit(&s, " reset ")) {
		if (take_lit(&s, "succeeded") || take_lit(&s, "succeed"))
			ev.ok = true;
		else if (!take_lit(&s, "failed"))
			return false;
		ev.kind = GPUROBUST_DMESG_RING_RESET_DONE;
		h = hang_for(p, ds, ev.ring);
		if (h) {
			h->recovery = GPUROBUST_RECOVERY_RING;
			h->outcome = ev.ok ? GPUROBUST_OUTCOME_RECOVERED : GPUROBUST_OUTCOME_FAILED;
		}
	} else if (span_find(line, "GPU reset begin!")) {
		ev.kind = GPUROBUST_DMESG_GPU_RESET_BEGIN;
		h = hang_for(p, ds, NULL);
		if (h) {
			h->recovery = GPUROBUST_RECOVERY_FULL;
			h->outcome = GPUROBUST_OUTCOME_PENDING;
		}
	} else if ((span_after(line, "GPU reset(", &s) && take_dec(&s, &n) && take_lit(&s, ") ")) ||
		   (span_after(line, "GPU reset ", &s) && span_starts(s, "succeeded, trying"))) {
		ev.ok = take_lit(&s, "succeeded");
		if (!ev.ok && !take_lit(&s, "failed"))
			return false;
		ev.kind = GPUROBUST_DMESG_GPU_RESET_DONE;
		h = open_hang(p, ds);
		/* a finished ring reset is another hang; a reset still running
		 * (or one whose begin line the excerpt cut) is this one */
		if (!h || (h->outcome != GPUROBUST_OUTCOME_PENDING &&
			   h->recovery != GPUROBUST_RECOVERY_UNKNOWN &&
			   h->recovery != GPUROBUST_RECOVERY_FULL))
			h = new_hang(p, ds, ds->name);
		if (h) {
			h->recovery = GPUROBUST_RECOVERY_FULL;
			h->outcome = ev.ok ? GPUROBUST_OUTCOME_RECOVERED : GPUROBUST_OUTCOME_FAILED;
		}
	} else if (span_find(line, "GPU Recovery Failed: ")) {
		ev.kind = GPUROBUST_DMESG_GPU_RESET_DONE;
		h = hang_for(p, ds, NULL);
		if (h) {
			h->recovery = GPUROBUST_RECOVERY_FULL;
			h->outcome = GPUROBUST_OUTCOME_FAILED;
		}
	} else if (span_find(line, "VRAM is lost due to GPU reset!") ||
		   span_find(line, "*ERROR* VRAM is lost!")) {
		ev.kind = GPUROBUST_DMESG_VRAM_LOST;
		h = full_reset(p, ds);
		if (h)
			h->vram_lost = true;
	} else if (span_find(line, "device coredump file has been created")) {
		ev.kind = GPUROBUST_DMESG_COREDUMP;
	} else if (span_find(line, "device wedged, but recovered through reset")) {
		ev.kind = GPUROBUST_DMESG_WEDGED;
		h = open_hang(p, ds);
		if (h && h->outcome == GPUROBUST_OUTCOME_PENDING)
			h->outcome = GPUROBUST_OUTCOME_RECOVERED;
	} else {
		for (size_t i = 0; i < sizeof(reset_methods) / sizeof(reset_methods[0]); i++) {
			struct span t;

			if (!span_after(line, reset_methods[i], &t) || t.n)
				continue;
			ev.kind = GPUROBUST_DMESG_RESET_METHOD;
			full_reset(p, ds);
			break;
		}
		if (!ev.kind)
			return false;
	}
	ds->fault_last = false;
	add_event(p, &ev);
	return true;
}

/* Lines a person shortened: the records around them may miss lines. */
static bool is_elision(struct span line)
{
	struct span t = span_trim(line);

	return span_eq(t, "...") || span_eq(t, "[...]") || span_eq(t, "…") ||
	       span_eq(t, "(...)") || span_eq(t, "[snip]");
}

static void parse_line(struct dmesg_parser *p, struct span line)
{
	char devname[GPUROBUST_NAME_MAX];
	struct device_state *ds;

	if (is_elision(line)) {
		diag(p, GPUROBUST_CD_NOTE, "lines elided here: fault records end at it");
		for (size_t i = 0; i < p->n_dev; i++)
			p->dev[i].fault = -1;
		return;
	}
	/* Every message of interest comes from amdgpu, or from drm on its
	 * behalf (FreeBSD's drmn0); skip the rest cheaply. Early amdgpu (2016)
	 * printed the GCN decode line "VM fault (0x0c, vmid 5) at page ..."
	 * with a bare printk: it is read only where it completes a GCN fault
	 * block of amdgpu's that waits for it (radeon prints the same line). */
	if (!span_find(line, "amdgpu") && !span_find(line, "drm")) {
		if (p->last && span_find(line, "VM fault (0x") && gcn_fault_waits(p, p->last))
			match_gcn_fault(p, line, p->last);
		return;
	}
	line_device(line, devname);
	/* A line that names no device continues the latest record ("[drm]
	 * VRAM is lost ..."), but the old timeout lines, which name none
	 * either, open a hang of their own that a later line gives a device. */
	if (devname[0] || !p->last || span_find(line, " timeout") ||
	    span_find(line, "Process information"))
		ds = device(p, devname);
	else
		ds = p->last;
	p->last = ds;
	if (!match_ring_timeout(p, line, ds) && !match_page_fault(p, line, ds) &&
	    !match_gcn_fault(p, line, ds) && !match_fault_address(p, line, ds) &&
	    !match_fault_detail(p, line, ds) && !match_reset(p, line, ds))
		match_process(p, line, ds);
}

/* A time of day from the usual prefixes, in seconds: dmesg's "[  87.85]",
 * journalctl's and syslog's "HH:MM:SS[.us]" after the date, ISO 8601.
 * Only the order of lines is wanted, so the date is ignored. */
static bool line_time(struct span line, double *t)
{
	struct span s = line;
	int64_t a, b, c;

	if (s.n > 200)
		s.n = 200;
	skip_blanks(&s);
	if (take_lit(&s, "[")) {
		skip_blanks(&s);
		if (take_dec(&s, &a) && take_lit(&s, ".") && take_dec(&s, &b) && take_lit(&s, "]")) {
			*t = (double)a + (double)b / 1e6;
			return true;
		}
	}
	for (size_t i = 0; i + 8 <= s.n && i < 40; i++) {
		struct span u = span_skip(s, i);

		/* a time of day: fields of two digits (a longer run of digits
		 * would overflow the arithmetic below) */
		if (u.p[2] != ':' || !take_dec(&u, &a) || !take_lit(&u, ":") || !take_dec(&u, &b) ||
		    !take_lit(&u, ":") || !take_dec(&u, &c) || a < 0 || a > 99 || b < 0 || b > 99 ||
		    c < 0 || c > 99)
			continue;
		*t = (double)(a * 3600 + b * 60 + c);
		if (take_lit(&u, ".") && take_dec(&u, &a))
			*t += (double)a / 1e6;
		return true;
	}
	return false;
}

/* journalctl -r prints the newest line first: when the amdgpu lines' times
 * run backwards more often than forwards, read them from the last. */
static bool newest_first(const struct span *lines, size_t n)
{
	size_t back = 0, fwd = 0;
	double prev = 0, t;
	bool have = false;

	for (size_t i = 0; i < n; i++) {
		if (!span_find(lines[i], "amdgpu") || !line_time(lines[i], &t))
			continue;
		if (have && t < prev)
			back++;
		else if (have && t > prev)
			fwd++;
		prev = t;
		have = true;
	}
	return back >= 2 && back > fwd;
}

/* The scalar fields: the first hang and the first fault, the headline. */
static void summarize(struct gpurobust_dmesg *log)
{
	if (log->n_hangs) {
		const struct gpurobust_log_hang *h = &log->hangs[0];

		log->timeout = true;
		memcpy(log->ring, h->ring, sizeof(log->ring));
		log->signaled_seq = h->signaled_seq;
		log->emitted_seq = h->emitted_seq;
		memcpy(log->process, h->process, sizeof(log->process));
		memcpy(log->thread, h->thread, sizeof(log->thread));
		log->pid = h->pid;
		log->tid = h->tid;
		log->recovery = h->recovery;
		log->outcome = h->outcome;
		log->vram_lost = h->vram_lost;
	}
	if (log->n_faults) {
		const struct gpurobust_log_fault *f = &log->faults[0];
		struct gpurobust_fault_bits bits;

		log->fault = true;
		cut_copy(log->fault_hub, sizeof(log->fault_hub), f->hub);
		log->fault_vmid = f->vmid;
		log->fault_pasid = f->pasid;
		cut_copy(log->fault_process, sizeof(log->fault_process), f->process);
		log->fault_pid = f->pid;
		log->fault_addr = f->addr;
		log->fault_status = f->status;
		log->fault_status_known = f->has_status;
		cut_copy(log->fault_client, sizeof(log->fault_client), f->client);
		if (f->has_status && gpurobust_fault_decode(f->status, f->layout, &bits)) {
			log->more_faults = bits.more_faults;
			log->walker_error = bits.walker_error;
			log->permission_faults = bits.permission_faults;
			log->mapping_error = bits.mapping_error;
			log->rw = bits.rw;
		} else {
			log->rw = f->write;
		}
	}
}

/* The lines of @text, as spans, so that they can be read in either order. */
static struct span *split_lines(const char *text, size_t len, size_t *n)
{
	struct line_reader r;
	struct span line, *lines = NULL;
	size_t cap = 0;

	*n = 0;
	line_reader_init(&r, text, len);
	while (line_next(&r, &line)) {
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct span *a = realloc(lines, ncap * sizeof(*a));

			if (!a) {
				free(lines);
				return NULL;
			}
			lines = a;
			cap = ncap;
		}
		lines[(*n)++] = line;
	}
	return lines ? lines : malloc(sizeof(*lines));
}

GPUROBUST_EXPORT
int gpurobust_dmesg_parse(const char *text, size_t len, struct gpurobust_dmesg **out)
{
	struct dmesg_parser p = { 0 };
	struct span *lines;
	size_t n;

	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	p.log = calloc(1, sizeof(*p.log));
	lines = p.log ? split_lines(text ? text : "", len, &n) : NULL;
	if (!lines) {
		free(p.log);
		return -ENOMEM;
	}
	p.log->reversed = newest_first(lines, n);
	if (p.log->reversed)
		diag(&p, GPUROBUST_CD_NOTE, "newest line first (journalctl -r): read from the last");
	for (size_t i = 0; i < n && !p.oom; i++) {
		size_t at = p.log->reversed ? n - 1 - i : i;

		p.lineno = at + 1;
		parse_line(&p, lines[at]);
	}
	free(lines);
	if (p.dropped_diags) {
		p.lineno = 0;
		p.log->n_diags--;	/* make room for the count */
		diag(&p, GPUROBUST_CD_NOTE, "%zu more diagnostics not kept", p.dropped_diags + 1);
	}
	if (p.oom) {
		gpurobust_dmesg_free(p.log);
		return -ENOMEM;
	}
	summarize(p.log);
	*out = p.log;
	return 0;
}

GPUROBUST_EXPORT
void gpurobust_dmesg_free(struct gpurobust_dmesg *log)
{
	if (!log)
		return;
	free(log->events);
	free(log->hangs);
	free(log->faults);
	free(log->diags);
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
	case GPUROBUST_DMESG_RESET_METHOD: return "reset_method";
	}
	return "invalid";
}
