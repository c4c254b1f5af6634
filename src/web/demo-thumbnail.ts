/**
 * The demo game's thumbnail (CONTRACT §17.2), drawn here so the demo world's catalogue has a face:
 * a gold coin over an arcade night. No text (fonts differ between machines). The seed uploads it
 * through the same re-encoding as a developer's upload (demo-seed.service.ts).
 */
export const DEMO_THUMBNAIL_SVG = `
<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1a0f3d"/>
      <stop offset="0.62" stop-color="#3b1a63"/>
      <stop offset="1" stop-color="#0f1020"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#ffcc33" stop-opacity="0.55"/>
      <stop offset="1" stop-color="#ffcc33" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="face" cx="0.38" cy="0.32" r="0.75">
      <stop offset="0" stop-color="#fff2b0"/>
      <stop offset="0.45" stop-color="#ffcc33"/>
      <stop offset="1" stop-color="#d98e04"/>
    </radialGradient>
    <linearGradient id="rim" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ffe27a"/>
      <stop offset="1" stop-color="#a86400"/>
    </linearGradient>
  </defs>
  <rect width="1280" height="720" fill="url(#sky)"/>
  <g stroke="#4fd1c5" stroke-opacity="0.35" stroke-width="2" fill="none">
    <path d="M0 520 H1280 M0 560 H1280 M0 610 H1280 M0 672 H1280"/>
    <path d="M640 470 L-200 720 M640 470 L120 720 M640 470 L400 720 M640 470 L640 720 M640 470 L880 720 M640 470 L1160 720 M640 470 L1480 720"/>
  </g>
  <circle cx="640" cy="330" r="300" fill="url(#glow)"/>
  <g transform="translate(640 330)">
    <ellipse cx="0" cy="215" rx="170" ry="22" fill="#000" fill-opacity="0.35"/>
    <circle r="190" fill="url(#rim)"/>
    <circle r="160" fill="url(#face)"/>
    <circle r="160" fill="none" stroke="#a86400" stroke-width="6" stroke-dasharray="4 14"/>
    <path d="M0 -92 L27 -30 L94 -28 L41 13 L60 78 L0 40 L-60 78 L-41 13 L-94 -28 L-27 -30 Z" fill="#e09a0b" stroke="#fff2b0" stroke-width="6" stroke-linejoin="round"/>
    <path d="M-120 -70 A140 140 0 0 1 -40 -135" stroke="#fffbe6" stroke-width="14" stroke-linecap="round" fill="none" opacity="0.8"/>
  </g>
  <g fill="#fffbe6">
    <path d="M300 170 l10 28 l28 10 l-28 10 l-10 28 l-10 -28 l-28 -10 l28 -10 z"/>
    <path d="M1000 140 l7 20 l20 7 l-20 7 l-7 20 l-7 -20 l-20 -7 l20 -7 z"/>
    <path d="M960 430 l6 16 l16 6 l-16 6 l-6 16 l-6 -16 l-16 -6 l16 -6 z"/>
    <path d="M250 420 l5 14 l14 5 l-14 5 l-5 14 l-5 -14 l-14 -5 l14 -5 z"/>
  </g>
  <g fill="#ff6fae">
    <circle cx="180" cy="110" r="6"/><circle cx="1120" cy="300" r="5"/><circle cx="420" cy="90" r="4"/><circle cx="860" cy="80" r="5"/>
  </g>
  <g fill="#4fd1c5">
    <circle cx="1080" cy="520" r="5"/><circle cx="160" cy="330" r="4"/>
  </g>
</svg>
`;
