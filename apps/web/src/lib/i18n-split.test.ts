import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CORE_SECTIONS } from '../../vite-locale-split';
import fr from '../locales/fr.json';

const SRC = path.resolve(import.meta.dirname, '..');

function sources(target: string): string[] {
  const full = path.join(SRC, target);
  if (statSync(full).isFile()) return [full];
  return readdirSync(full, { recursive: true })
    .map((f) => path.join(full, String(f)))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
}

// What renders before the signed-in screens' texts are fetched (see app/RouteGate): the public
// routes, the shell around every page, and shared pieces they use.
const SIGNED_OUT = [
  'features/auth',
  'features/legal',
  'features/errors',
  'app/Shell.tsx',
  'app/UserMenu.tsx',
  'app/BrowserNotice.tsx',
  'app/ErrorBoundary.tsx',
  'features/install',
  'features/new-version',
  'app/RouteGate.tsx',
  'components/ui/Alert.tsx',
  'components/ui/Button.tsx',
  'components/ui/FormField.tsx',
  'components/ui/PasswordInput.tsx',
  'components/ui/Spinner.tsx',
];

describe('catalogue split (vite-locale-split)', () => {
  it('names only sections that exist', () => {
    for (const section of CORE_SECTIONS) expect(Object.keys(fr), section).toContain(section);
  });

  it.each(SIGNED_OUT)('%s uses only texts of the core chunk', (target) => {
    // A component without texts of its own passes by its sources being read at all.
    expect(sources(target).length, target).toBeGreaterThan(0);
    for (const file of sources(target)) {
      const text = readFileSync(file, 'utf8');
      for (const [, section] of text.matchAll(/\bt\(\s*['`]([a-zA-Z]+)\./g)) {
        expect(CORE_SECTIONS, `${path.relative(SRC, file)} uses "${section}.…"`).toContain(section);
      }
    }
  });
});
