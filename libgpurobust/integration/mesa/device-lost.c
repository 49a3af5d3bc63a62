// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The smallest Vulkan program that meets a reset: one device, an empty
 * command buffer submitted twice, each followed by vkWaitForFences, or
 * with the argument "poll" by vkGetFenceStatus until it is no longer
 * VK_NOT_READY, or with "labels" recording a tree of debug labels, each
 * leaf around a vkCmdFillBuffer (see record_labels()), for breadcrumbs.
 * "bench N fill|empty" records N label pairs, each around a
 * vkCmdFillBuffer or around nothing, twice: the second recording, in
 * measured_pairs(), is the one a benchmark counts and the one submitted.
 * It prints one line per call, "submit N: VK_..." and
 * "wait N: VK_..." ("poll N: VK_..." when polling), then,
 * when the device was lost and has VK_EXT_device_fault, what
 * vkGetDeviceFaultInfoEXT() says: "fault: <description>" and one
 * "fault vendor: <description> (code C, data D)" per vendor entry. It exits
 * 0 when it could run at all, so that the runner compares the results with
 * what each scenario expects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

static const char *result_name(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return "VK_SUCCESS";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	case VK_NOT_READY: return "VK_NOT_READY";
	case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
	default: return "other";
	}
}

/* Whether the device offers VK_EXT_device_fault. */
static int has_device_fault(VkPhysicalDevice physical)
{
	VkExtensionProperties ext[512];
	uint32_t n = 512;

	if (vkEnumerateDeviceExtensionProperties(physical, NULL, &n, ext) < 0)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(ext[i].extensionName, VK_EXT_DEVICE_FAULT_EXTENSION_NAME))
			return 1;
	return 0;
}

static void print_fault(VkDevice device)
{
	PFN_vkGetDeviceFaultInfoEXT get_fault =
		(PFN_vkGetDeviceFaultInfoEXT)vkGetDeviceProcAddr(device, "vkGetDeviceFaultInfoEXT");
	VkDeviceFaultCountsEXT counts = { .sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT };
	VkDeviceFaultAddressInfoEXT addresses[16];
	VkDeviceFaultVendorInfoEXT vendor[16];
	VkDeviceFaultInfoEXT info = { .sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT,
				      .pAddressInfos = addresses, .pVendorInfos = vendor };

	if (!get_fault || get_fault(device, &counts, NULL) < 0) {
		printf("fault: vkGetDeviceFaultInfoEXT failed\n");
		return;
	}
	counts.addressInfoCount = counts.addressInfoCount < 16 ? counts.addressInfoCount : 16;
	counts.vendorInfoCount = counts.vendorInfoCount < 16 ? counts.vendorInfoCount : 16;
	/* The vendor binary (RADV's hang report) is not read. */
	counts.vendorBinarySize = 0;
	if (get_fault(device, &counts, &info) < 0) {
		printf("fault: vkGetDeviceFaultInfoEXT failed\n");
		return;
	}
	printf("fault: %s\n", info.description[0] ? info.description : "(no description)");
	for (uint32_t i = 0; i < counts.vendorInfoCount; i++)
		printf("fault vendor: %s (code %llu, data %llu)\n", vendor[i].description,
		       (unsigned long long)vendor[i].vendorFaultCode,
		       (unsigned long long)vendor[i].vendorFaultData);
}

/* The labels a game's frame might carry, as DXVK and vkd3d-proton emit
 * them: a label is opened at its depth and closed when a later one is not
 * deeper. Leaves fill a buffer, so that each has work inside. */
static const struct {
	unsigned int depth;
	const char *name;
} labels[] = {
	{ 0, "frame 1" },
	{ 1, "shadow pass" },
	{ 1, "main pass" },
	{ 2, "opaque" },
	{ 2, "transparent" },
	{ 1, "post" },
};
#define LABEL_COUNT (sizeof(labels) / sizeof(labels[0]))

static void record_labels(VkDevice device, VkCommandBuffer cmd, VkBuffer buffer)
{
	PFN_vkCmdBeginDebugUtilsLabelEXT begin = (PFN_vkCmdBeginDebugUtilsLabelEXT)
		vkGetDeviceProcAddr(device, "vkCmdBeginDebugUtilsLabelEXT");
	PFN_vkCmdEndDebugUtilsLabelEXT end = (PFN_vkCmdEndDebugUtilsLabelEXT)
		vkGetDeviceProcAddr(device, "vkCmdEndDebugUtilsLabelEXT");
	unsigned int open = 0;

	for (unsigned int i = 0; i < LABEL_COUNT; i++) {
		VkDebugUtilsLabelEXT label = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
					       .pLabelName = labels[i].name };

		for (; open > labels[i].depth; open--)
			end(cmd);
		begin(cmd, &label);
		open++;
		if (i + 1 == LABEL_COUNT || labels[i + 1].depth <= labels[i].depth)
			vkCmdFillBuffer(cmd, buffer, 0, 4096, i);
	}
	for (; open; open--)
		end(cmd);
}

/* The benchmark's loop: what one label pair costs the application's thread.
 * Names repeat, as a game's passes do. */
__attribute__((noinline)) void bench_pairs(VkDevice device, VkCommandBuffer cmd, VkBuffer buffer,
					   unsigned int pairs, int fill);
__attribute__((noinline)) void bench_pairs(VkDevice device, VkCommandBuffer cmd, VkBuffer buffer,
					   unsigned int pairs, int fill)
{
	static const char *const names[] = { "shadow", "gbuffer", "lighting", "opaque",
					      "transparent", "post", "ui", "present" };
	PFN_vkCmdBeginDebugUtilsLabelEXT begin = (PFN_vkCmdBeginDebugUtilsLabelEXT)
		vkGetDeviceProcAddr(device, "vkCmdBeginDebugUtilsLabelEXT");
	PFN_vkCmdEndDebugUtilsLabelEXT end = (PFN_vkCmdEndDebugUtilsLabelEXT)
		vkGetDeviceProcAddr(device, "vkCmdEndDebugUtilsLabelEXT");

	for (unsigned int i = 0; i < pairs; i++) {
		VkDebugUtilsLabelEXT label = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
					       .pLabelName = names[i % 8] };

		begin(cmd, &label);
		if (fill)
			vkCmdFillBuffer(cmd, buffer, 0, 4096, i);
		end(cmd);
	}
}

/* The recording a benchmark measures (callgrind --toggle-collect). */
__attribute__((noinline)) void measured_pairs(VkDevice device, VkCommandBuffer cmd, VkBuffer buffer,
					      unsigned int pairs, int fill);
__attribute__((noinline)) void measured_pairs(VkDevice device, VkCommandBuffer cmd, VkBuffer buffer,
					      unsigned int pairs, int fill)
{
	bench_pairs(device, cmd, buffer, pairs, fill);
}

/* A 4 KiB buffer in the first memory type that takes it. */
static VkResult create_buffer(VkDevice device, VkBuffer *buffer, VkDeviceMemory *memory)
{
	VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096,
				   .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT };
	VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO };
	VkMemoryRequirements req;
	VkResult r;

	if ((r = vkCreateBuffer(device, &bci, NULL, buffer)))
		return r;
	vkGetBufferMemoryRequirements(device, *buffer, &req);
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)__builtin_ctz(req.memoryTypeBits);
	if ((r = vkAllocateMemory(device, &mai, NULL, memory)))
		return r;
	return vkBindBufferMemory(device, *buffer, *memory, 0);
}

static int fail(const char *what, VkResult r)
{
	fprintf(stderr, "device-lost: %s failed: %s (%d)\n", what, result_name(r), r);
	return 1;
}

/* vkGetFenceStatus() until the fence is no longer VK_NOT_READY (the shim
 * signals at once; a bound keeps a broken one from hanging the run). */
static VkResult poll_fence(VkDevice device, VkFence fence)
{
	VkResult r = VK_NOT_READY;

	for (int tries = 0; tries < 1000000 && r == VK_NOT_READY; tries++)
		r = vkGetFenceStatus(device, fence);
	return r;
}

int main(int argc, char **argv)
{
	int poll = argc > 1 && !strcmp(argv[1], "poll");
	int bench = argc > 3 && !strcmp(argv[1], "bench");
	int with_labels = bench || (argc > 1 && !strcmp(argv[1], "labels"));
	VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				  .apiVersion = VK_API_VERSION_1_1 };
	const char *debug_utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
	VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     .pApplicationInfo = &app,
				     .enabledExtensionCount = with_labels ? 1 : 0,
				     .ppEnabledExtensionNames = &debug_utils };
	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
					.queueFamilyIndex = 0, .queueCount = 1,
					.pQueuePriorities = &priority };
	VkPhysicalDeviceFaultFeaturesEXT fault_features = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT, .deviceFault = VK_TRUE,
	};
	const char *fault_ext = VK_EXT_DEVICE_FAULT_EXTENSION_NAME;
	VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				   .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
	int fault = 0, lost = 0;
	VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
					.queueFamilyIndex = 0 };
	VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
					    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
					    .commandBufferCount = 1 };
	VkCommandBufferBeginInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkInstance instance;
	VkPhysicalDevice physical;
	VkPhysicalDeviceProperties props;
	VkDevice device;
	VkQueue queue;
	VkCommandPool pool;
	VkCommandBuffer cmd;
	VkFence fence;
	VkBuffer buffer = VK_NULL_HANDLE;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	uint32_t count = 1;
	VkResult r;

	r = vkCreateInstance(&ici, NULL, &instance);
	if (r)
		return fail("vkCreateInstance", r);
	r = vkEnumeratePhysicalDevices(instance, &count, &physical);
	if (r < 0 || !count)
		return fail("vkEnumeratePhysicalDevices", r);
	vkGetPhysicalDeviceProperties(physical, &props);
	printf("device: %s\n", props.deviceName);
	if (has_device_fault(physical)) {
		fault = 1;
		dci.pNext = &fault_features;
		dci.enabledExtensionCount = 1;
		dci.ppEnabledExtensionNames = &fault_ext;
	}
	r = vkCreateDevice(physical, &dci, NULL, &device);
	if (r)
		return fail("vkCreateDevice", r);
	vkGetDeviceQueue(device, 0, 0, &queue);
	if (with_labels && (r = create_buffer(device, &buffer, &memory)))
		return fail("creating a buffer", r);
	if ((r = vkCreateCommandPool(device, &pci, NULL, &pool)) ||
	    (cai.commandPool = pool, r = vkAllocateCommandBuffers(device, &cai, &cmd)) ||
	    (r = vkBeginCommandBuffer(cmd, &cbi)))
		return fail("setting up a command buffer", r);
	if (bench) {
		/* The first recording grows the command stream and interns the
		 * names; the second is the one measured and submitted. */
		bench_pairs(device, cmd, buffer, (unsigned int)atoi(argv[2]), !strcmp(argv[3], "fill"));
		if ((r = vkEndCommandBuffer(cmd)) || (r = vkBeginCommandBuffer(cmd, &cbi)))
			return fail("re-recording a command buffer", r);
		measured_pairs(device, cmd, buffer, (unsigned int)atoi(argv[2]), !strcmp(argv[3], "fill"));
	} else if (with_labels) {
		record_labels(device, cmd, buffer);
	}
	if ((r = vkEndCommandBuffer(cmd)) || (r = vkCreateFence(device, &fci, NULL, &fence)))
		return fail("setting up a command buffer", r);

	for (int i = 1; i <= (bench ? 1 : 2); i++) {
		VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				    .commandBufferCount = 1, .pCommandBuffers = &cmd };

		vkResetFences(device, 1, &fence);
		r = vkQueueSubmit(queue, 1, &si, fence);
		lost |= r == VK_ERROR_DEVICE_LOST;
		printf("submit %d: %s\n", i, result_name(r));
		r = poll ? poll_fence(device, fence) :
			   vkWaitForFences(device, 1, &fence, VK_TRUE, 1000000000ull);
		lost |= r == VK_ERROR_DEVICE_LOST;
		printf("%s %d: %s\n", poll ? "poll" : "wait", i, result_name(r));
		fflush(stdout);
	}
	if (lost && fault)
		print_fault(device);
	vkDestroyFence(device, fence, NULL);
	vkDestroyCommandPool(device, pool, NULL);
	vkDestroyBuffer(device, buffer, NULL);
	vkFreeMemory(device, memory, NULL);
	vkDestroyDevice(device, NULL);
	vkDestroyInstance(instance, NULL);
	return 0;
}
