// Runs synchronously at the top of <body>, before the app's module loads, so a dark-mode user never
// sees a light frame. The keys and values must match web/src/theme/darkMode.ts and
// web/src/i18n/language.ts, which take over once the app starts.
(() => {
  try {
    if (localStorage.getItem('quern.darkMode') === '1') document.body.classList.add('dark-mode');
    const language = localStorage.getItem('quern.language');
    if (language === 'en' || language === 'es') document.documentElement.lang = language;
  } catch {
    // Storage can be disabled (privacy modes); the defaults (light, English) then apply.
  }
})();
