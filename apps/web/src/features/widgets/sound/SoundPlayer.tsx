import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { formatTrackTime, nextVolume, shouldSeek, truncateFileName } from '../media/media-rules';
import { closeTemporary, usePageTemporary } from './page-sound';
import type { SoundTrack } from './sound-tracks';

interface SoundPlayerProps {
  main: SoundTrack | null;
  /** Played over the main track until closed (docs/product.md §4). */
  temporary?: SoundTrack | null;
  onCloseTemporary?: () => void;
  /** Row setting `autoplay`: tried on mount; a browser that refuses it leaves the play button. */
  autoPlay?: boolean;
}

/**
 * docs/product.md §4/§9 sound player: main and temporary track, play/pause toggle, volume cycling
 * 0.125 → 0.45 → 1, a position slider that ignores moves under 0.5 s, stops at the end.
 */
export function SoundPlayer({
  main,
  temporary = null,
  onCloseTemporary,
  autoPlay = false,
}: SoundPlayerProps) {
  // The volume outlives a change of track; position and play state start afresh (keyed player).
  const [volume, setVolume] = useState(1);
  // A page's main player also plays a resource's sound over its own (page-sound.ts).
  const overMain = usePageTemporary(main !== null && temporary === null);
  if (overMain) {
    temporary = overMain;
    onCloseTemporary = closeTemporary;
  }
  const track = temporary ?? main;
  if (!track) return null;
  return (
    <TrackPlayer
      // By role and file: a resource's sound that is the page's own file is still a track of its
      // own, mounted afresh so it starts (the sound journey found it kept the main track's state).
      key={`${temporary !== null ? 'temporary' : 'main'}:${track.src}`}
      track={track}
      main={main}
      isTemporary={temporary !== null}
      onCloseTemporary={onCloseTemporary}
      // A temporary track was asked for, so it plays at once, as does an autoplay row's track.
      start={temporary !== null || autoPlay}
      volume={volume}
      onVolume={setVolume}
    />
  );
}

interface TrackPlayerProps {
  track: SoundTrack;
  main: SoundTrack | null;
  isTemporary: boolean;
  onCloseTemporary?: () => void;
  start: boolean;
  volume: number;
  onVolume: (volume: number) => void;
}

function TrackPlayer({
  track,
  main,
  isTemporary,
  onCloseTemporary,
  start,
  volume,
  onVolume,
}: TrackPlayerProps) {
  const { t } = useTranslation();
  const id = useId();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const src = track.src;
  // Read once: only the track's arrival starts it, not a later change of the prop.
  const [startOnArrival] = useState(start);

  useEffect(() => {
    const element = audio.current;
    if (!element || !startOnArrival) return;
    // Browsers may refuse to play before the learner interacts: the play button stays.
    element.play().catch(() => setPlaying(false));
  }, [startOnArrival]);

  useEffect(() => {
    if (audio.current) audio.current.volume = volume;
  }, [volume]);

  const name = truncateFileName(track.name);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) element.play().catch(() => setPlaying(false));
    else element.pause();
  };
  const cycleVolume = () => {
    const next = nextVolume(volume);
    onVolume(next);
    setAnnouncement(t('widgets.sound.volume', { percent: Math.round(next * 100) }));
  };
  const seek = (target: number) => {
    const element = audio.current;
    if (!element || !shouldSeek(element.currentTime, target)) return;
    element.currentTime = target;
    setPosition(target);
  };
  const timeText = t('widgets.sound.time', {
    position: formatTrackTime(position),
    duration: formatTrackTime(duration),
  });

  return (
    <div
      className={`sound-player${isTemporary ? ' sound-player--temporary' : ''}`}
      role="group"
      aria-label={t('widgets.sound.label', { name })}
    >
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a sound track; its text is on the page */}
      <audio
        ref={audio}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onLoadedMetadata={(e) =>
          setDuration(Number.isFinite(e.currentTarget.duration) ? e.currentTarget.duration : 0)
        }
        onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime)}
        onEnded={(e) => {
          // docs/product.md §4: stops at the end of the track (no loop); the next play starts it again.
          e.currentTarget.pause();
          e.currentTarget.currentTime = 0;
          setPlaying(false);
          setPosition(0);
        }}
      />
      <button type="button" className="btn btn--secondary sound-player__play" onClick={toggle}>
        {t(playing ? 'widgets.sound.pause' : 'widgets.sound.play', { name })}
      </button>
      <label htmlFor={`${id}-seek`} className="sr-only">
        {t('widgets.sound.position')}
      </label>
      <input
        id={`${id}-seek`}
        className="sound-player__seek"
        type="range"
        min={0}
        max={duration || 0}
        step={0.1}
        value={Math.min(position, duration || 0)}
        disabled={!duration}
        aria-valuetext={timeText}
        onChange={(e) => seek(Number(e.target.value))}
      />
      <span className="sound-player__time" aria-hidden="true">
        {timeText}
      </span>
      <button type="button" className="btn btn--ghost" onClick={cycleVolume}>
        {t('widgets.sound.volume', { percent: Math.round(volume * 100) })}
      </button>
      {isTemporary && onCloseTemporary ? (
        <button type="button" className="btn btn--ghost" onClick={onCloseTemporary}>
          {t(main ? 'widgets.sound.backToMain' : 'widgets.sound.close', {
            name: main ? truncateFileName(main.name) : name,
          })}
        </button>
      ) : null}
      <span className="sr-only" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
