// Coin Clicker: a demo game for the Arcade SDK. It talks to the arcade only through
// window.ArcadeSDK (insertCoin, unlockAchievement, submitScore); it never sees cookies or the API.
(function () {
  'use strict';
  var ROUND_MS = 10000;
  var sdk = window.ArcadeSDK;
  var $ = function (id) { return document.getElementById(id); };
  var insertButton = $('insert-coin');
  var tapButton = $('tap');
  var endButton = $('end-round');
  var state = { playing: false, taps: 0, endsAt: 0, timer: 0 };

  function say(text) { $('status').textContent = text; }

  var REASONS = {
    INSUFFICIENT_COINS: 'Not enough coins for a credit.',
    RATE_LIMITED: 'Easy! One coin at a time.',
    BUSY: 'A coin is already on its way.',
    USER_ACTION_REQUIRED: 'Press "Insert coin" to insert a coin.',
    SESSION_EXPIRED: 'Your play session has expired: reload to play again.',
    NOT_SIGNED_IN: 'Sign in to play.',
    EMAIL_NOT_VERIFIED: 'Verify your e-mail address to play.',
    TIMEOUT: 'The arcade did not answer. Try again.',
    ERROR: 'Something went wrong. Try again in a moment.'
  };
  function explain(reason) { return REASONS[reason] || 'The arcade refused (' + reason + ').'; }

  function unlock(key) {
    // unlockAchievement never rejects; the host page plays the celebration itself.
    return sdk.unlockAchievement(key);
  }

  function tick() {
    var left = Math.max(0, state.endsAt - Date.now());
    $('time').textContent = (left / 1000).toFixed(1);
    if (left === 0) endRound();
  }

  function startRound() {
    state.playing = true;
    state.taps = 0;
    state.endsAt = Date.now() + ROUND_MS;
    $('score').textContent = '0';
    tapButton.disabled = false;
    endButton.disabled = false;
    insertButton.disabled = true;
    tapButton.focus();
    say('Go! Tap the coin!');
    state.timer = setInterval(tick, 100);
  }

  function endRound() {
    if (!state.playing) return;
    state.playing = false;
    clearInterval(state.timer);
    tapButton.disabled = true;
    endButton.disabled = true;
    var score = state.taps * 10;
    say('Round over: ' + score + ' points. Sending your score…');
    sdk.submitScore(score).then(function (result) {
      insertButton.disabled = false;
      insertButton.focus();
      if (!result.ok) return say('Score not sent: ' + explain(result.reason));
      if (result.testMode) say('Preview round: ' + score + ' points (not saved).');
      else if (result.qualifies) say('High score! Rank ' + result.rank + (result.needsInitials ? ': enter your initials above.' : ' as ' + result.initials + '.'));
      else say('Score saved: ' + score + ' points. Insert a coin to go again.');
    });
    var unlocks = [];
    if (state.taps >= 10) unlocks.push('quick-fingers');
    if (state.taps >= 40) unlocks.push('marathon');
    if (state.taps === 0) unlocks.push('zen');
    unlocks.forEach(unlock);
  }

  insertButton.addEventListener('click', function () {
    insertButton.disabled = true;
    say('Inserting a coin…');
    sdk.insertCoin().then(function (result) {
      if (!result.ok) {
        insertButton.disabled = false;
        return say(explain(result.reason));
      }
      $('receipt').textContent = 'Receipt: ' + result.insertionId;
      startRound();
      unlock('first-coin');
    });
  });

  tapButton.addEventListener('click', function () {
    if (!state.playing) return;
    state.taps += 1;
    $('score').textContent = String(state.taps * 10);
  });
  endButton.addEventListener('click', endRound);

  sdk.init().then(function (result) {
    if (!result.ok) return $('hello').textContent = explain(result.reason);
    $('hello').textContent = 'Hi ' + result.player.displayName + '! One credit costs ' + result.coinsPerCredit +
      (result.coinsPerCredit === 1 ? ' coin.' : ' coins.') + (result.testMode ? ' (Preview: free.)' : '');
  });
})();
