import { SPLASH_SIZES } from '@parcours/domain/entities';
import { describe, expect, it } from 'vitest';
import { afterFirstScreen, firstScreenShown } from '../../lib/after-first-screen';
import { applyBranding } from '../../lib/branding';
import { splashLinks, splashMedia } from './splash';

const assets = {
  logo: null,
  favicon: '/api/files/fav/download',
  colors: { primary: '#0f766e', secondary: '#134e4a' },
  touchIcons: { '192x192': '/api/files/t192/download', '512x512': '/api/files/t512/download' },
  splashScreens: Object.fromEntries(SPLASH_SIZES.map((size) => [size, `/api/files/s-${size}/download`])),
};

describe('iOS splash screens (SPEC §3)', () => {
  it.each([
    ['640x1136', 320, 568, 2],
    ['1125x2436', 375, 812, 3],
    ['828x1792', 414, 896, 2],
    ['1242x2688', 414, 896, 3],
    ['2048x2732', 1024, 1366, 2],
  ] as const)('%s fits a %i×%i screen at %i×', (size, width, height, ratio) => {
    // The picture is exactly the screen in device pixels, or iOS shows a white launch screen.
    expect(size).toBe(`${width * ratio}x${height * ratio}`);
    expect(splashMedia(size)).toBe(
      `(device-width: ${width}px) and (device-height: ${height}px) and (-webkit-device-pixel-ratio: ${ratio}) and (orientation: portrait)`,
    );
  });

  it('gives every SPEC size a picture size equal to its screen in device pixels', () => {
    for (const size of SPLASH_SIZES) {
      const [, w, h, r] =
        /device-width: (\d+)px\) and \(device-height: (\d+)px\) and \(-webkit-device-pixel-ratio: (\d)/
          .exec(splashMedia(size))!
          .map(Number) as [number, number, number, number];
      expect(`${w * r}x${h * r}`).toBe(size);
    }
  });

  it('links only the sizes a tenant has', () => {
    expect(splashLinks({ '750x1334': '/a.png' })).toEqual([
      { href: '/a.png', media: splashMedia('750x1334'), size: '750x1334' },
    ]);
    expect(splashLinks(undefined)).toEqual([]);
  });

  it('puts the tenant’s touch icon, app title and launch screens in the document head, replacing the last tenant’s', async () => {
    applyBranding(assets, 'Pathways Learning');
    applyBranding(assets, 'Pathways Learning');
    // Linked once the first screen is painted (decision 0030): the browser fetches them at once.
    expect(document.head.querySelector('link[rel="apple-touch-icon"]')).toBeNull();
    firstScreenShown();
    await afterFirstScreen();
    const head = document.head;
    expect(head.querySelector('link[rel="apple-touch-icon"]')?.getAttribute('href')).toBe(
      '/api/files/t192/download',
    );
    expect(head.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('/api/files/fav/download');
    expect(head.querySelector<HTMLMetaElement>('meta[name="apple-mobile-web-app-title"]')?.content).toBe(
      'Pathways Learning',
    );
    const splash = [...head.querySelectorAll<HTMLLinkElement>('link[rel="apple-touch-startup-image"]')];
    expect(splash).toHaveLength(SPLASH_SIZES.length);
    expect(splash[0]!.getAttribute('href')).toBe('/api/files/s-640x1136/download');
    expect(splash[0]!.media).toBe(splashMedia('640x1136'));

    applyBranding({ ...assets, splashScreens: {} }, 'Other');
    await afterFirstScreen();
    expect(head.querySelectorAll('link[rel="apple-touch-startup-image"]')).toHaveLength(0);
  });
});
