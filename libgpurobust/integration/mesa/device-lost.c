// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The smallest Vulkan program that meets a reset: one device, an empty
 * command buffer submitted twice, each followed by vkWaitForFences. It
 * prints one line per call, "submit N: VK_..." and "wait N: VK_...", and
 * exits 0 when it could run at all, so that run-drm-shim.sh compares the
 * results with what each scenario expects.
 */
#include <stdio.h>
#include <string.h>

#include <vulkan/vulkan.h>

static const char *result_name(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return "VK_SUCCESS";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
	default: return "other";
	}
}

static int fail(const char *what, VkResult r)
{
	fprintf(stderr, "device-lost: %s failed: %s (%d)\n", what, result_name(r), r);
	return 1;
}

int main(void)
{
	VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				  .apiVersion = VK_API_VERSION_1_1 };
	VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     .pApplicationInfo = &app };
	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
					.queueFamilyIndex = 0, .queueCount = 1,
					.pQueuePriorities = &priority };
	VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				   .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
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
		printf("submit %d: %s\n", i, result_name(vkQueueSubmit(queue, 1, &si, fence)));
		printf("wait %d: %s\n", i,
		       result_name(vkWaitForFences(device, 1, &fence, VK_TRUE, 1000000000ull)));
		fflush(stdout);
	}
	vkDestroyFence(device, fence, NULL);
	vkDestroyCommandPool(device, pool, NULL);
	vkDestroyDevice(device, NULL);
	vkDestroyInstance(instance, NULL);
	return 0;
}
