import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import { firstScreenShown } from '../lib/after-first-screen';
import { addCatalogue, changeLanguage } from '../lib/i18n';
import { sanitizerReady } from '../lib/sanitize-html';
import { endSession } from '../lib/session';
import { setTenant } from '../lib/tenant';

// Lazy screens, and React Aria under them, load on first import, which takes a while on a busy
// machine.
configure({ asyncUtilTimeout: 15_000 });

// What waits for the first screen (offline sync, device copies: lib/after-first-screen.ts) starts
// at once in tests, whichever screen a test renders.
firstScreenShown();

// jsdom has no HTML Sanitizer: content HTML goes through DOMPurify, loaded before any test renders
// (in the app, the screens that show content HTML wait for it: decision 0033).
await sanitizerReady();

// Both catalogues in memory so tests never wait for a language chunk; English unless a test switches.
addCatalogue('en', en);
addCatalogue('fr', fr);

beforeEach(async () => {
  await changeLanguage('en');
  window.localStorage.clear();
  window.sessionStorage.clear();
  endSession();
});

afterEach(() => {
  cleanup();
  // Module-level stores outlive a test: start each one signed out and without a tenant.
  endSession();
  setTenant(null);
  document.title = '';
});
