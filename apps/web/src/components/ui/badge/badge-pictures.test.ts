import { allBadgePictures, BADGE_PIXELS } from '@parcours/domain/badges';
import { badgeSvg } from '../../../../badges/badge-art';
import { renderBadgePng } from '../../../../vite-badges';

describe('badge pictures built from SVG', () => {
  it.each(allBadgePictures())('$type $level $size rasterises at its pixel width', (picture) => {
    expect(badgeSvg(picture.type, picture.level, picture.size)).toMatch(/^<svg [^>]*viewBox="0 0 100 100"/);
    const png = renderBadgePng(picture);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // IHDR: width at byte 16, height at 20.
    expect(png.readUInt32BE(16)).toBe(BADGE_PIXELS[picture.size]);
    expect(png.readUInt32BE(20)).toBe(BADGE_PIXELS[picture.size]);
  });

  it('draws each level in its own colours', () => {
    expect(badgeSvg('level', 'gold', 'md')).not.toBe(badgeSvg('level', 'silver', 'md'));
    expect(badgeSvg('level', 'none', 'md')).toContain('opacity="0.5"');
  });
});
