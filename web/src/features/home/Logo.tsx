import './logo.css';

/**
 * Quern's logo: a quern (a hand mill) seen from above, its upper millstone with the eye in the
 * middle, curved furrows and the peg that turns it, followed by the wordmark. Colours come from
 * CSS (currentColor and --quern-logo-* from logo.css), so the logo follows the light and dark themes.
 */

/** The millstone alone, for places where the name is already written next to it. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 56 56" width="56" height="56" aria-hidden="true" focusable="false">
      <circle cx="28" cy="28" r="25" fill="var(--quern-logo-stone, #0b5cad)" />
      <g fill="none" stroke="var(--quern-logo-furrow, #cfe3f7)" strokeWidth="2.2" strokeLinecap="round">
        {/* Six furrows, each swept the same way, as millwrights dress a stone so it cuts. */}
        {[0, 60, 120, 180, 240, 300].map((angle) => (
          <path key={angle} d="M28 19 Q36 13 37 5" transform={`rotate(${angle} 28 28)`} />
        ))}
      </g>
      <circle cx="28" cy="28" r="6" fill="var(--quern-logo-eye, #ffffff)" />
      <circle cx="45" cy="14" r="4.5" fill="var(--quern-logo-peg, #e0a43a)" />
    </svg>
  );
}

/**
 * The full logo. It is one image named 'Quern' for assistive technology; the wordmark is drawn
 * with textLength so it fits its box whatever font the browser picks.
 */
export function Logo({ label = 'Quern', className }: { label?: string; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 196 56" width="196" height="56" role="img" aria-label={label} focusable="false">
      <LogoMark />
      <text
        x="66"
        y="40"
        textLength="126"
        lengthAdjust="spacingAndGlyphs"
        fill="currentColor"
        fontFamily="inherit"
        fontSize="36"
        fontWeight="700"
        letterSpacing="1"
      >
        Quern
      </text>
    </svg>
  );
}
