/**
 * iOS launch screens (docs/product.md §3 splash sizes). iOS ignores the manifest for these: it picks the
 * `apple-touch-startup-image` link whose media query matches the device exactly, so each
 * picture size is tied to the screen (CSS size and pixel ratio) it was made for.
 */
import type { ContextAssets } from '@parcours/domain/entities';
import { SPLASH_SIZES } from '@parcours/domain/entities';

type SplashSize = (typeof SPLASH_SIZES)[number];

/** Screen width, height (CSS pixels, portrait) and pixel ratio of the devices each size fits. */
const SCREENS: Record<SplashSize, [number, number, number]> = {
  '640x1136': [320, 568, 2], // iPhone SE (1st generation), 5s
  '750x1334': [375, 667, 2], // iPhone 8, SE (2nd and 3rd generations)
  '1242x2208': [414, 736, 3], // iPhone 8 Plus
  '1125x2436': [375, 812, 3], // iPhone X, XS, 11 Pro, 12/13 mini
  '828x1792': [414, 896, 2], // iPhone XR, 11
  '1242x2688': [414, 896, 3], // iPhone XS Max, 11 Pro Max
  '1536x2048': [768, 1024, 2], // iPad 9.7", mini
  '1668x2224': [834, 1112, 2], // iPad Air (3rd generation), Pro 10.5"
  '1668x2388': [834, 1194, 2], // iPad Pro 11"
  '2048x2732': [1024, 1366, 2], // iPad Pro 12.9"
};

export function splashMedia(size: SplashSize): string {
  const [width, height, ratio] = SCREENS[size];
  return (
    `(device-width: ${width}px) and (device-height: ${height}px) and ` +
    `(-webkit-device-pixel-ratio: ${ratio}) and (orientation: portrait)`
  );
}

export interface SplashLink {
  href: string;
  media: string;
  size: SplashSize;
}

/** One link per splash screen the tenant has, in docs/product.md §3 order. */
export function splashLinks(splashScreens: ContextAssets['splashScreens'] | undefined): SplashLink[] {
  return SPLASH_SIZES.flatMap((size) => {
    const href = splashScreens?.[size];
    return href ? [{ href, media: splashMedia(size), size }] : [];
  });
}
