// Package chromiumtest gives page tests the browser they drive: Debian's
// chromium, which .ci/run installs, headless, with the options that keep
// it quiet and quick on a shared machine (no sandbox, no background
// network, no throttling of pages in the background). There is no mock of
// the browser.
package chromiumtest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// Path returns where chromium is. Without it the test is skipped, except
// in CI (ARBITER_CI set), where it fails; with -short it is skipped.
func Path(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("drives a browser")
	}
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("ARBITER_CI") != "" {
			t.Fatal("chromium is not installed; .ci/run installs it")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	return path
}

// Options are the allocator options of a headless chromium at path.
func Options(path string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true), chromedp.Flag("disable-backgrounding-occluded-windows", true))
}
