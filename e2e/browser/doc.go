// Package browser tests wasmsand in headless Chromium with chromedp: the
// npm package's <script> and ES module builds on bare pages, and the demo
// terminal served by "wasmsand serve". The tests skip only when no
// Chromium is installed (Debian: apt-get install chromium).
package browser
