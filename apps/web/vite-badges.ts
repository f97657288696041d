/**
 * Badge pictures (SPEC §7 `/static/images/badges/badge-{type}_{level}[_{size}].png`), made at
 * build time: the SVG sources of badges/badge-art.ts rasterised with resvg into the build output,
 * and served the same way on demand by the dev server. Nothing binary is committed.
 */
import { Resvg } from '@resvg/resvg-js';
import type { Plugin } from 'vite';
import {
  allBadgePictures,
  BADGE_PICTURE_DIR,
  BADGE_PIXELS,
  badgeFileName,
  type BadgeSize,
} from '../../packages/domain/src/badges';
import { badgeSvg } from './badges/badge-art';

type Picture = ReturnType<typeof allBadgePictures>[number];

export function renderBadgePng(picture: Picture): Buffer {
  const svg = badgeSvg(picture.type, picture.level, picture.size);
  const width: number = BADGE_PIXELS[picture.size as BadgeSize];
  return new Resvg(svg, { fitTo: { mode: 'width', value: width } }).render().asPng();
}

export function badgePictures(): Plugin {
  const pictures = allBadgePictures();
  const byName = new Map(pictures.map((p) => [badgeFileName(p.type, p.level, p.size), p]));
  const dir = BADGE_PICTURE_DIR.replace(/^\//, '');
  return {
    name: 'parcours-badge-pictures',
    generateBundle() {
      for (const [name, picture] of byName) {
        this.emitFile({ type: 'asset', fileName: `${dir}/${name}`, source: renderBadgePng(picture) });
      }
    },
    configureServer(server) {
      server.middlewares.use(`${BADGE_PICTURE_DIR}/`, (req, res, next) => {
        const picture = byName.get((req.url ?? '').replace(/^\//, '').split('?')[0] ?? '');
        if (!picture) return next();
        res.setHeader('content-type', 'image/png');
        res.end(renderBadgePng(picture));
      });
    },
  };
}
