import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import { addCatalogue, changeLanguage } from '../lib/i18n';
import { endSession } from '../lib/session';
import { setTenant } from '../lib/tenant';

// Lazy screens are transformed on first import, which takes a while on a busy machine.
configure({ asyncUtilTimeout: 5000 });

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
