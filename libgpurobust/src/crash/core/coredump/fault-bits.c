// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Protection fault status registers, split into their fields.
 *
 * GCN (gmc_v6 to v8) has one VM_CONTEXT1_PROTECTION_FAULT_STATUS layout;
 * GFX9 to GFX11 share the *VM_L2_PROTECTION_FAULT_STATUS layout, whatever
 * the hub's prefix (VM, GCVM, MMVM). The bit positions are those of the
 * register headers in drivers/gpu/drm/amd/include/asic_reg (gmc_8_1_sh_mask.h,
 * gc_9_0_sh_mask.h, gc_10_1_0_sh_mask.h, gc_11_0_0_sh_mask.h), and the
 * corpus's logs print the same fields decoded by the kernel next to the raw
 * value, which the tests compare.
 */
#include <gpurobust/coredump.h>

#include "common/export.h"

static uint32_t field(uint32_t v, unsigned int lo, unsigned int bits)
{
	return (v >> lo) & ((1u << bits) - 1);
}

GPUROBUST_EXPORT
bool gpurobust_fault_decode(uint32_t status, enum gpurobust_fault_layout layout,
			    struct gpurobust_fault_bits *out)
{
	*out = (struct gpurobust_fault_bits){ .layout = layout };
	switch (layout) {
	case GPUROBUST_FAULT_LAYOUT_GFX9:
		out->more_faults = field(status, 0, 1);
		out->walker_error = field(status, 1, 3);
		out->permission_faults = field(status, 4, 4);
		out->mapping_error = field(status, 8, 1);
		out->client_id = field(status, 9, 9);
		out->rw = field(status, 18, 1);
		out->vmid = field(status, 20, 4);
		return true;
	case GPUROBUST_FAULT_LAYOUT_GCN:
		/* PROTECTIONS[7:0] are the fault's kinds, as permission faults */
		out->permission_faults = field(status, 0, 8);
		out->client_id = field(status, 12, 8);
		out->rw = field(status, 24, 1);
		out->vmid = field(status, 25, 4);
		return true;
	case GPUROBUST_FAULT_LAYOUT_UNKNOWN:
		break;
	}
	out->layout = GPUROBUST_FAULT_LAYOUT_UNKNOWN;
	return false;
}

GPUROBUST_EXPORT
enum gpurobust_fault_layout gpurobust_fault_layout_of_family(uint32_t family)
{
	/* AMDGPU_FAMILY_SI 110 to AMDGPU_FAMILY_CZ 135; AI 141 (gfx9) to
	 * GC_10_3_7 151; GC_12_0_0 is 152 */
	if (family >= 110 && family <= 135)
		return GPUROBUST_FAULT_LAYOUT_GCN;
	if (family >= 141 && family <= 151)
		return GPUROBUST_FAULT_LAYOUT_GFX9;
	return GPUROBUST_FAULT_LAYOUT_UNKNOWN;
}
