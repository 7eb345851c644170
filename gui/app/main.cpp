// tapescope: GLFW + OpenGL 3 bootstrap. Everything else is in App.
#include <GLFW/glfw3.h>

#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/app.h"
#include "backends/imgui_impl_glfw.h"
#include "backends/imgui_impl_opengl3.h"
#include "imgui.h"

namespace {

void glfw_error(int code, const char* message) { std::fprintf(stderr, "glfw error 0x%x: %s\n", code, message); }

void drop_files(GLFWwindow* window, int count, const char** paths) {
  if (auto* app = static_cast<ts::gui::App*>(glfwGetWindowUserPointer(window))) app->on_drop(count, paths);
}

}  // namespace

int main(int argc, char** argv) {
  ts::gui::AppOptions options;
  std::string error;
  if (!ts::gui::parse_args(argc, argv, options, error)) {
    std::fprintf(stderr, "tapescope: %s\n\n%s", error.c_str(), ts::gui::usage_text());
    return 2;
  }
  if (options.help) {
    std::fputs(ts::gui::usage_text(), stdout);
    return 0;
  }
  if (options.version) {
#ifdef TAPESCOPE_VERSION
    std::printf("tapescope %s\n", TAPESCOPE_VERSION);
#endif
    return 0;
  }

  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    const char* display = std::getenv("DISPLAY");
    std::fprintf(stderr,
                 "tapescope: cannot open a window: glfwInit failed (DISPLAY=%s).\n"
                 "Run it on a desktop session, or headless under Xvfb:\n"
                 "  xvfb-run -a -s '-screen 0 1600x1000x24' tapescope [options] FILE\n"
                 "(tapescope-cli needs no display.)\n",
                 display ? display : "<unset>");
    return 3;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const bool shot = !options.screenshot.empty();
  if (shot) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  int rc = 0;
  GLFWwindow* window = nullptr;
  {
    ts::gui::App app(options);
    window = glfwCreateWindow(app.window_width(), app.window_height(), "Tapescope", nullptr, nullptr);
    if (!window) {
      std::fprintf(stderr, "tapescope: cannot create an OpenGL 3 window (run under xvfb-run when headless)\n");
      glfwTerminate();
      return 3;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(shot ? 0 : 1);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    if (!app.init(window, error)) {
      std::fprintf(stderr, "tapescope: %s\n", error.c_str());
      rc = 2;
    } else {
      ImGui_ImplGlfw_InitForOpenGL(window, true);
      ImGui_ImplOpenGL3_Init("#version 130");
      glfwSetWindowUserPointer(window, &app);
      glfwSetDropCallback(window, drop_files);
      while (!glfwWindowShouldClose(window) && !app.done()) {
        if (shot) glfwPollEvents();
        else glfwWaitEventsTimeout(app.session().running() || app.session().playing() ? 0.03 : 0.25);
        app.before_frame();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        // A screenshot shows the app as a learner finds it: no pointer (Xvfb's sits
        // mid-screen and would raise a tooltip).
        if (shot) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        ImGui::NewFrame();
        app.frame();
        ImGui::Render();
        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(window, &fb_w, &fb_h);
        glViewport(0, 0, fb_w, fb_h);
        glClearColor(0.10f, 0.105f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        app.after_render(fb_w, fb_h);
        glfwSwapBuffers(window);
      }
      rc = app.exit_code();
      app.shutdown();
      glfwSetWindowUserPointer(window, nullptr);
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
    }
  }
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return rc;
}
