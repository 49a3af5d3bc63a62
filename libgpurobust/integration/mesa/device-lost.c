// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The smallest Vulkan program that meets a reset: one device, an empty
 * command buffer submitted twice, each followed by vkWaitForFences, or
 * with the argument "poll" by vkGetFenceStatus until it is no longer
 * VK_NOT_READY. It prints one line per call, "submit N: VK_..." and
 * "wait N: VK_..." ("poll N: VK_..." when polling), then,
 * when the device was lost and has VK_EXT_device_fault, what
 * vkGetDeviceFaultInfoEXT() says: "fault: <description>" and one
 * "fault vendor: <description> (code C, data D)" per vendor entry. It exits
 * 0 when it could run at all, so that the runner compares the results with
 * what each scenario expects.
 */
#include <stdio.h>
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
	VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				  .apiVersion = VK_API_VERSION_1_1 };
	VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     .pApplicationInfo = &app };
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
	if ((r = vkCreateCommandPool(device, &pci, NULL, &pool)) ||
	    (cai.commandPool = pool, r = vkAllocateCommandBuffers(device, &cai, &cmd)) ||
	    (r = vkBeginCommandBuffer(cmd, &cbi)) || (r = vkEndCommandBuffer(cmd)) ||
	    (r = vkCreateFence(device, &fci, NULL, &fence)))
		return fail("setting up a command buffer", r);

	for (int i = 1; i <= 2; i++) {
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
	vkDestroyDevice(device, NULL);
	vkDestroyInstance(instance, NULL);
	return 0;
}
