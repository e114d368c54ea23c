// Debian chromium through playwright-core: never downloads a browser.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.PT2E_LENS_CHROMIUM ?? '/usr/bin/chromium';
export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}
