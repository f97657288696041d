import { SOUND_VOLUMES } from '@parcours/domain/constants';
import { useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';

/**
 * SPEC §4 sound player: play/pause toggle, volume cycling 0.125 → 0.45 → 1, stops at the end of
 * the track.
 */
export function SoundPlayer({ src, name }: { src: string; name: string }) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [volume, setVolume] = useState<number>(1);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => setPlaying(false));
    else element.pause();
  };
  const cycleVolume = () => {
    const next = SOUND_VOLUMES[(SOUND_VOLUMES.indexOf(volume as (typeof SOUND_VOLUMES)[number]) + 1) % SOUND_VOLUMES.length]!;
    setVolume(next);
    if (audio.current) audio.current.volume = next;
  };

  return (
    <div className="sound-player">
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a sound track; its text is on the page */}
      <audio
        ref={audio}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
      />
      <button type="button" className="btn btn--secondary" aria-pressed={playing} onClick={toggle}>
        {t(playing ? 'widgets.sound.pause' : 'widgets.sound.play', { name })}
      </button>
      <button type="button" className="btn btn--ghost" onClick={cycleVolume}>
        {t('widgets.sound.volume', { percent: Math.round(volume * 100) })}
      </button>
    </div>
  );
}
