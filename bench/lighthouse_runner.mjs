// Lighthouse runs for T7 (bench/lighthouse.py), one Node process for all of them: a job a line on stdin
// ({"url", "preset": "mobile" | "desktop", "categories": [...], "chromeFlags": [...]}), its report a line on stdout
// ({"report": <Lighthouse's result>} or {"error": "..."}).
//
// Each run has a Chromium of its own, launched for it and killed after, as the lighthouse command does; what one
// process saves is the command's own cost around each run (Node started, Lighthouse loaded, and about 4 s between
// the report and the command's exit on this machine: 11.4 s a mobile run where Lighthouse itself took 5.6).
// The full-page screenshot is left out: it is taken after the trace that the scores come from, and nothing reads it.

import {createInterface} from 'node:readline';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

for await (const line of createInterface({input: process.stdin})) {
  const job = JSON.parse(line);
  let chrome;
  let reply;
  try {
    chrome = await chromeLauncher.launch({chromePath: process.env.CHROME_PATH, chromeFlags: job.chromeFlags});
    const result = await lighthouse(
      job.url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: job.categories,
        disableFullPageScreenshot: true,
      },
      job.preset === 'desktop' ? desktopConfig : undefined,
    );
    const runtimeError = result?.lhr.runtimeError;
    reply = runtimeError ? {error: `${runtimeError.code}: ${runtimeError.message}`} : {report: result?.lhr};
  } catch (error) {
    reply = {error: String(error instanceof Error ? error.stack : error)};
  } finally {
    await chrome?.kill();
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
