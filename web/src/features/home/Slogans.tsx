import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { sloganKeys, sloganSlotMs } from './sloganTiming.js';
import { usePrefersReducedMotion } from './usePrefersReducedMotion.js';

/**
 * The six slogans. All six are always in the list, so screen readers read them once, as a list,
 * instead of hearing a ticker; CSS stacks them and fades one in at a time. With reduced motion
 * they are shown together and nothing moves. Otherwise a button pauses the loop, because
 * content that moves for more than five seconds must be stoppable (WCAG 2.2.2).
 */
export function Slogans() {
  const { t } = useTranslation('home');
  const reducedMotion = usePrefersReducedMotion();
  const [paused, setPaused] = useState(false);
  const animated = !reducedMotion;
  const listClass = ['slogans', animated ? 'slogans--animated' : 'slogans--static', animated && paused ? 'slogans--paused' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="slogans-block">
      <ul className={listClass} aria-label={t('slogansLabel')}>
        {sloganKeys.map((key, index) => (
          // Each slogan starts its turn one slot after the previous one.
          <li
            key={key}
            className="slogans__item"
            style={animated ? ({ animationDelay: `${index * sloganSlotMs}ms` } as CSSProperties) : undefined}
          >
            {t(`slogans.${key}`)}
          </li>
        ))}
      </ul>
      {animated && (
        <button type="button" className="slogans__toggle" onClick={() => setPaused(!paused)}>
          {paused ? t('playSlogans') : t('pauseSlogans')}
        </button>
      )}
    </div>
  );
}
