// The Chromium the browser tests launch: MELEE_CHROMIUM (tests/browser/test_browser.py
// sets it to what scripts/install-browser found or installed), else Debian's.
export const CHROMIUM = process.env.MELEE_CHROMIUM || "/usr/bin/chromium";
