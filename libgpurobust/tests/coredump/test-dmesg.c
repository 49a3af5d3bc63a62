// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The kernel log parser on real posted logs (fixtures/SOURCES.md) and on the
 * exact message formats of Linux 6.12 for the lines no post shows.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <gpurobust/coredump.h>

#include "fixture.h"

static struct gpurobust_dmesg *parse_text(const char *text)
{
	struct gpurobust_dmesg *log = NULL;

	assert_int_equal(gpurobust_dmesg_parse(text, strlen(text), &log), 0);
	assert_non_null(log);
	return log;
}

static struct gpurobust_dmesg *parse_fixture(const char *name)
{
	struct gpurobust_dmesg *log;
	size_t len;
	char *text = fixture_read(name, &len);

	assert_non_null(text);
	log = parse_text(text);
	free(text);
	return log;
}

static size_t count_kind(const struct gpurobust_dmesg *log, enum gpurobust_dmesg_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < log->n_events; i++)
		n += log->events[i].kind == kind;
	return n;
}

/* Ring reset fails and a full reset starts (newer kernel, dmesg prefix). */
static void test_fixture_ring_reset_failed_full_reset(void **state)
{
	struct gpurobust_dmesg *log = parse_fixture("dmesg-rocm-amdgpu-202.txt");

	(void)state;
	assert_true(log->timeout);
	assert_string_equal(log->ring, "gfx_0.0.0");
	assert_int_equal(log->signaled_seq, 9261);
	assert_int_equal(log->emitted_seq, 9264);
	assert_string_equal(log->process, "glretrace");
	assert_int_equal(log->pid, 12755);
	assert_string_equal(log->thread, "glretrace:cs0");
	assert_int_equal(log->tid, 12756);
	assert_int_equal(log->recovery, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(log->outcome, GPUROBUST_OUTCOME_PENDING);
	assert_int_equal(count_kind(log, GPUROBUST_DMESG_RING_RESET_BEGIN), 1);
	assert_int_equal(count_kind(log, GPUROBUST_DMESG_RING_RESET_DONE), 1);
	assert_int_equal(count_kind(log, GPUROBUST_DMESG_COREDUMP), 1);
	assert_false(log->fault);
	gpurobust_dmesg_free(log);
}

/* A compute ring reset that succeeds, and a page fault with its decoded
 * status fields (no time stamps). */
static void test_fixture_page_fault_decoded_fields(void **state)
{
	struct gpurobust_dmesg *log = parse_fixture("dmesg-rocm-legacy-5999.txt");

	(void)state;
	assert_string_equal(log->ring, "comp_1.1.0");
	assert_int_equal(log->recovery, GPUROBUST_RECOVERY_RING);
	assert_int_equal(log->outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_string_equal(log->process, "gnome-shell");
	assert_true(log->fault);
	assert_string_equal(log->fault_hub, "gfxhub");
	assert_int_equal(log->fault_addr, 0);
	assert_true(log->fault_status_known);
	assert_int_equal(log->fault_status, 0x00040A40);
	assert_string_equal(log->fault_client, "CPC");
	assert_int_equal(log->more_faults, 0);
	assert_int_equal(log->walker_error, 0);
	assert_int_equal(log->permission_faults, 4);
	assert_int_equal(log->mapping_error, 0);
	assert_int_equal(log->rw, 1);
	assert_int_equal(count_kind(log, GPUROBUST_DMESG_WEDGED), 1);
	gpurobust_dmesg_free(log);
}

/* The 2021 "Process information:" format, journalctl prefix. */
static void test_fixture_process_information_format(void **state)
{
	struct gpurobust_dmesg *log = parse_fixture("dmesg-proton-5285.txt");

	(void)state;
	assert_string_equal(log->ring, "gfx_0.0.0");
	assert_int_equal(log->signaled_seq, 27154412);
	assert_string_equal(log->process, "ForzaHorizon5.e");
	assert_int_equal(log->pid, 92632);
	assert_int_equal(log->tid, 92665);
	assert_int_equal(log->recovery, GPUROBUST_RECOVERY_FULL);
	/* "ring kiq_2.1.0 test failed" is not a timeout */
	assert_int_equal(count_kind(log, GPUROBUST_DMESG_RING_TIMEOUT), 1);
	gpurobust_dmesg_free(log);
}

/* Ring reset fails, BACO reset, and the reset succeeds. */
static void test_fixture_full_reset_succeeds(void **state)
{
	struct gpurobust_dmesg *log = parse_fixture("dmesg-cosmic-epoch-3764.txt");

	(void)state;
	assert_string_equal(log->process, "cosmic-comp");
	assert_int_equal(log->recovery, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(log->outcome, GPUROBUST_OUTCOME_RECOVERED);
	gpurobust_dmesg_free(log);
}

/* Linux 6.12's own formats (amdgpu_job.c, amdgpu_device.c, gmc_v10_0.c). */
static void test_612_soft_recovery_vram_lost_formats(void **state)
{
	struct gpurobust_dmesg *log = parse_text(
		"[  10.0] amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 timeout, but soft recovered\n"
		"[  20.0] amdgpu 0000:03:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:3 pasid:32773)\n"
		"[  20.0] amdgpu 0000:03:00.0: amdgpu:  in process vkcube pid 4242 thread vkcube:cs0 pid 4250\n"
		"[  20.0] amdgpu 0000:03:00.0: amdgpu:   in page starting at address 0x0000800100000000 from client 0x1b (UTCL2)\n"
		"[  30.0] amdgpu 0000:03:00.0: amdgpu: ring comp_1.0.0 timeout, signaled seq=5, emitted seq=7\n"
		"[  30.0] amdgpu 0000:03:00.0: amdgpu: Process information: process vkcube pid 4242 thread vkcube:cs0 pid 4250\n"
		"[  30.1] amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\n"
		"[  31.0] [drm] VRAM is lost due to GPU reset!\n"
		"[  31.2] amdgpu 0000:03:00.0: amdgpu: GPU reset(2) succeeded!\n");

	(void)state;
	assert_int_equal(count_kind(log, GPUROBUST_DMESG_SOFT_RECOVERED), 1);
	assert_int_equal(log->events[0].kind, GPUROBUST_DMESG_SOFT_RECOVERED);
	assert_string_equal(log->events[0].ring, "gfx_0.0.0");
	/* every hang in order; the summary is the first, the headline */
	assert_int_equal(log->n_hangs, 2);
	assert_string_equal(log->ring, "gfx_0.0.0");
	assert_int_equal(log->recovery, GPUROBUST_RECOVERY_SOFT);
	assert_false(log->vram_lost);
	assert_string_equal(log->hangs[1].ring, "comp_1.0.0");
	assert_string_equal(log->hangs[1].device, "0000:03:00.0");
	assert_int_equal(log->hangs[1].recovery, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(log->hangs[1].outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_true(log->hangs[1].vram_lost);
	assert_int_equal(log->n_faults, 1);
	assert_true(log->fault);
	assert_int_equal(log->fault_pasid, 32773);
	assert_string_equal(log->fault_process, "vkcube");
	assert_int_equal(log->fault_addr, 0x800100000000ULL);
	assert_string_equal(log->fault_client, "UTCL2");
	gpurobust_dmesg_free(log);
}

/* gmc_v9's retry fault format with "for process". */
static void test_gmc9_retry_fault_format(void **state)
{
	struct gpurobust_dmesg *log = parse_text(
		"amdgpu 0000:ab:00.0: amdgpu: [gfxhub0] retry page fault (src_id:0 ring:0 vmid:4 pasid:32829)\n"
		"amdgpu 0000:ab:00.0: amdgpu:  for process rocpctl pid 34756 thread rocpctl pid 34756)\n"
		"amdgpu 0000:ab:00.0: amdgpu:   in page starting at address 0x00007fa634372000 from IH client 0x1b (UTCL2)\n");

	(void)state;
	assert_true(log->events[0].retry);
	assert_string_equal(log->fault_hub, "gfxhub0");
	assert_string_equal(log->fault_process, "rocpctl");
	assert_int_equal(log->fault_addr, 0x00007fa634372000ULL);
	assert_false(log->timeout);
	gpurobust_dmesg_free(log);
}

/* Early amdgpu printed GCN's decode line with a bare printk (corpus:
 * steam-for-linux-3795): it completes the amdgpu block that waits for it,
 * and nothing else. radeon prints the same line after its own block. */
static void test_bare_gcn_decode_line(void **state)
{
	static const char block[] =
		"[1.1] %s 0000:01:00.0: GPU fault detected: 146 0x0938c80c\n"
		"[1.2] %s 0000:01:00.0:   VM_CONTEXT1_PROTECTION_FAULT_ADDR   0x00123927\n"
		"[1.3] %s 0000:01:00.0:   VM_CONTEXT1_PROTECTION_FAULT_STATUS 0x0A0C800C\n"
		"[1.4] VM fault (0x0c, vmid 5) at page 1194279, read from 'TC3' (0x54433300) (200)\n";
	char text[512];
	struct gpurobust_dmesg *log;

	(void)state;
	snprintf(text, sizeof(text), block, "amdgpu", "amdgpu", "amdgpu");
	log = parse_text(text);
	assert_int_equal(log->n_faults, 1);
	assert_string_equal(log->faults[0].client, "TC3");
	assert_int_equal(log->faults[0].addr, 0x123927000ULL);
	gpurobust_dmesg_free(log);

	snprintf(text, sizeof(text), block, "radeon", "radeon", "radeon");
	log = parse_text(text);
	assert_int_equal(log->n_faults, 0);
	gpurobust_dmesg_free(log);

	/* a block that has its decode line already takes no second one */
	log = parse_text("[1.1] amdgpu 0000:01:00.0: GPU fault detected: 146 0x0938c80c\n"
			 "[1.2] amdgpu 0000:01:00.0: VM fault (0x0c, vmid 5) at page 1, read from "
			 "'TC3' (0x54433300) (200)\n"
			 "[1.3] VM fault (0x0c, vmid 5) at page 2, read from 'TC4' (0x54433400) (72)\n");
	assert_int_equal(log->n_faults, 1);
	assert_string_equal(log->faults[0].client, "TC3");
	gpurobust_dmesg_free(log);
}

/* journalctl -r: the corpus's fixture with its lines reversed, as
 * `journalctl -k -r` prints them (the text of each line unchanged). */
static void test_reverse_order_reads_like_forward(void **state)
{
	size_t len = 0, n = 0;
	char *text = fixture_read("dmesg-cosmic-epoch-3764.txt", &len), *rev;
	const char *lines[64];
	struct gpurobust_dmesg *fwd, *back;

	(void)state;
	assert_non_null(text);
	rev = calloc(1, len + 2);
	assert_non_null(rev);
	for (char *l = strtok(text, "\n"); l && n < 64; l = strtok(NULL, "\n"))
		lines[n++] = l;
	while (n--) {
		strcat(rev, lines[n]);
		strcat(rev, "\n");
	}
	fwd = parse_fixture("dmesg-cosmic-epoch-3764.txt");
	back = parse_text(rev);
	assert_false(fwd->reversed);
	assert_true(back->reversed);
	assert_int_equal(back->n_hangs, 1);
	assert_string_equal(back->hangs[0].ring, fwd->hangs[0].ring);
	assert_string_equal(back->hangs[0].process, "cosmic-comp");
	assert_int_equal(back->hangs[0].tid, 2258);
	assert_int_equal(back->hangs[0].recovery, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(back->hangs[0].outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_int_equal(back->diags[0].severity, GPUROBUST_CD_NOTE);
	gpurobust_dmesg_free(fwd);
	gpurobust_dmesg_free(back);
	free(rev);
	free(text);
}

/* Two GPUs printing fault records line by line: each detail joins its own
 * device's record, and the other GPU's record, whose fault line the excerpt
 * cut, is diagnosed line by line instead of corrupting the first. */
static void test_two_gpus_interleaved(void **state)
{
	struct gpurobust_dmesg *log = parse_fixture("corpus/rocm-amdgpu-150-two-gpus-interleaved.log");
	size_t skipped = 0;

	(void)state;
	assert_int_equal(log->n_faults, 1);
	assert_string_equal(log->faults[0].device, "0000:88:00.0");
	assert_int_equal(log->faults[0].status, 0x00801030);
	assert_string_equal(log->faults[0].client, "TCP");
	for (size_t i = 0; i < log->n_diags; i++)
		skipped += strstr(log->diags[i].message, "without its fault line") != NULL;
	/* 0000:8b:00.0: address, status, CID and the five fields */
	assert_int_equal(skipped, 8);
	gpurobust_dmesg_free(log);
}

/* Lines that look like hang lines but cannot be read, and elisions. */
static void test_malformed_lines_are_diagnosed(void **state)
{
	struct gpurobust_dmesg *log = parse_fixture("corpus/steamos-1312-hrvylein-vangogh.log");
	struct gpurobust_dmesg *elided = parse_fixture("corpus/cosmic-comp-2626-journal-elision.log");

	(void)state;
	assert_int_equal(log->n_diags, 1);
	assert_int_equal(log->diags[0].line, 2);
	assert_non_null(strstr(log->diags[0].message, "process line without a pid"));
	assert_false(log->hangs[0].has_process);
	assert_int_equal(elided->n_diags, 1);
	assert_int_equal(elided->diags[0].line, 9);
	assert_int_equal(elided->n_hangs, 1);
	assert_int_equal(elided->hangs[0].outcome, GPUROBUST_OUTCOME_RECOVERED);
	gpurobust_dmesg_free(log);
	gpurobust_dmesg_free(elided);
}

/* The kernel decodes the status register into fields on the lines after
 * it; gpurobust_fault_decode() must agree with it on every record of every
 * corpus log that prints both. */
static void check_decode_against_kernel(const char *name, size_t *checked)
{
	struct gpurobust_dmesg *log = parse_fixture(name);
	struct gpurobust_fault_bits bits = { 0 };
	bool have = false;

	for (size_t i = 0; i < log->n_events; i++) {
		const struct gpurobust_dmesg_event *ev = &log->events[i];
		uint32_t want;

		if (ev->kind == GPUROBUST_DMESG_PAGE_FAULT) {
			have = false;
		} else if (ev->kind == GPUROBUST_DMESG_FAULT_STATUS) {
			have = gpurobust_fault_decode(ev->status, GPUROBUST_FAULT_LAYOUT_GFX9, &bits);
		} else if (ev->kind == GPUROBUST_DMESG_FAULT_FIELD && have) {
			if (!strcmp(ev->field, "CID"))
				want = bits.client_id;
			else if (!strcmp(ev->field, "MORE_FAULTS"))
				want = bits.more_faults;
			else if (!strcmp(ev->field, "WALKER_ERROR"))
				want = bits.walker_error;
			else if (!strcmp(ev->field, "PERMISSION_FAULTS"))
				want = bits.permission_faults;
			else if (!strcmp(ev->field, "MAPPING_ERROR"))
				want = bits.mapping_error;
			else
				want = bits.rw;
			if (want != ev->value)
				fail_msg("%s line %zu: %s is %u, decoded %u", name, ev->line, ev->field,
					 ev->value, want);
			(*checked)++;
		}
	}
	gpurobust_dmesg_free(log);
}

static void test_status_decode_agrees_with_kernel(void **state)
{
	static const char *const logs[] = {
		"dmesg-rocm-legacy-5999.txt", "corpus/freebsd-drm-kmod-78-rozhuk.log",
		"corpus/rocm-amdgpu-172-noretry.log", "corpus/cachyos-960-journal-gfx103.log",
		"corpus/rocm-amdgpu-168-wezterm.log", "corpus/rocm-legacy-2205-geohot-gfx11.log",
		"corpus/rocm-legacy-1495-p2p-sdma.log", "corpus/freebsd-drm-kmod-413-soft-recovered.log",
		"corpus/rocm-legacy-2766-cpc-pid0.log", "corpus/therock-1271-gfx1150-process-line.log",
		"corpus/cosmic-greeter-344-in-process.log", "corpus/rocm-amdgpu-150-mmhub0-vmc.log",
	};
	struct gpurobust_dmesg *gcn;
	struct gpurobust_fault_bits bits;
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
		check_decode_against_kernel(logs[i], &checked);
	/* every field line of those logs that follows its status line */
	assert_int_equal(checked, 77);
	/* GCN: the decode line names the VMID and the client id in brackets */
	gcn = parse_fixture("corpus/vulkan-overlay-31-gcn-147-flood.log");
	assert_true(gpurobust_fault_decode(gcn->faults[0].status, gcn->faults[0].layout, &bits));
	assert_int_equal(bits.vmid, 1);		/* "vmid 1" */
	assert_int_equal(bits.client_id, 196);	/* "(196)" */
	assert_int_equal(bits.permission_faults, 0x01);	/* "VM fault (0x01" */
	assert_int_equal(bits.rw, 0);		/* "read from" */
	assert_false(gpurobust_fault_decode(0x1234, GPUROBUST_FAULT_LAYOUT_UNKNOWN, &bits));
	gpurobust_dmesg_free(gcn);
}

static void test_noise_and_bad_arguments(void **state)
{
	struct gpurobust_dmesg *log = parse_text(
		"random line\nring buffer timeout in somebody else's driver\n"
		"amdgpu: ring \n[gfxhub] page fault (src_id:x\nGPU reset(\n");

	(void)state;
	assert_int_equal(log->n_events, 0);
	gpurobust_dmesg_free(log);
	/* a "time" whose fields overflow (found by fuzz-dmesg under UBSan) */
	log = parse_text("12:333333333333333334:1 amdgpu ring gfx timeout, signaled seq=1, emitted seq=2\n"
			 "11:00:00 amdgpu x\n10:00:00 amdgpu y\n");
	assert_int_equal(log->n_hangs, 1);
	gpurobust_dmesg_free(log);
	assert_int_equal(gpurobust_dmesg_parse(NULL, 3, &log), -EINVAL);
	assert_int_equal(gpurobust_dmesg_parse("", 0, NULL), -EINVAL);
	gpurobust_dmesg_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_ring_reset_failed_full_reset),
		cmocka_unit_test(test_fixture_page_fault_decoded_fields),
		cmocka_unit_test(test_fixture_process_information_format),
		cmocka_unit_test(test_fixture_full_reset_succeeds),
		cmocka_unit_test(test_612_soft_recovery_vram_lost_formats),
		cmocka_unit_test(test_gmc9_retry_fault_format),
		cmocka_unit_test(test_bare_gcn_decode_line),
		cmocka_unit_test(test_reverse_order_reads_like_forward),
		cmocka_unit_test(test_two_gpus_interleaved),
		cmocka_unit_test(test_malformed_lines_are_diagnosed),
		cmocka_unit_test(test_status_decode_agrees_with_kernel),
		cmocka_unit_test(test_noise_and_bad_arguments),
	};

	return cmocka_run_group_tests_name("dmesg", tests, NULL, NULL);
}
