// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * What a robust GLES context on radeonsi reports around a scripted reset.
 * EGL surfaceless, EGL_EXT_create_context_robustness: argv[1] is "lose"
 * (LOSE_CONTEXT_ON_RESET) or "none" (NO_RESET_NOTIFICATION). Two rounds of
 * a clear read back from a framebuffer object, each a command submission;
 * after each it prints glGetGraphicsResetStatusEXT(), then asks twice more
 * without submitting anything, so that a reset that has completed shows
 * as a status followed by GL_NO_ERROR (ARB_robustness):
 *   status 1: GL_NO_ERROR
 * Exit 77 when no robust context can be made (not a measurement).
 */
#include <stdio.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

static const char *status_name(GLenum status)
{
	switch (status) {
	case GL_NO_ERROR:
		return "GL_NO_ERROR";
	case GL_GUILTY_CONTEXT_RESET_EXT:
		return "GL_GUILTY_CONTEXT_RESET";
	case GL_INNOCENT_CONTEXT_RESET_EXT:
		return "GL_INNOCENT_CONTEXT_RESET";
	case GL_UNKNOWN_CONTEXT_RESET_EXT:
		return "GL_UNKNOWN_CONTEXT_RESET";
	default:
		return "unexpected";
	}
}

int main(int argc, char **argv)
{
	EGLint strategy = argc > 1 && !strcmp(argv[1], "none") ? EGL_NO_RESET_NOTIFICATION_EXT :
				  EGL_LOSE_CONTEXT_ON_RESET_EXT;
	const EGLint config_attribs[] = {
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE,
	};
	const EGLint context_attribs[] = {
		EGL_CONTEXT_CLIENT_VERSION, 2,
		EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_TRUE,
		EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, strategy,
		EGL_NONE,
	};
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	PFNGLGETGRAPHICSRESETSTATUSEXTPROC reset_status;
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLint n;
	GLuint fbo, rb;
	unsigned char pixel[4];

	/* A driver that aborts on a lost context must not take the lines
	 * printed before with it. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL) :
			    EGL_NO_DISPLAY;
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
		printf("skip: no surfaceless EGL display\n");
		return 77;
	}
	if (!eglChooseConfig(dpy, config_attribs, &config, 1, &n) || n < 1 ||
	    !eglBindAPI(EGL_OPENGL_ES_API)) {
		printf("skip: no GLES config\n");
		return 77;
	}
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		printf("skip: no robust context (EGL error 0x%x)\n", eglGetError());
		return 77;
	}
	reset_status = (PFNGLGETGRAPHICSRESETSTATUSEXTPROC)eglGetProcAddress(
		"glGetGraphicsResetStatusEXT");
	if (!reset_status) {
		printf("skip: no glGetGraphicsResetStatusEXT\n");
		return 77;
	}
	printf("renderer: %s\n", (const char *)glGetString(GL_RENDERER));
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA4, 16, 16);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	for (int round = 1; round <= 2; round++) {
		glClearColor(0.25f * round, 0, 0, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
		glFinish();
		printf("status %d: %s\n", round, status_name(reset_status()));
	}
	for (int query = 3; query <= 4; query++)
		printf("status %d: %s\n", query, status_name(reset_status()));
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
	return 0;
}
