/* Tablescore: the round clock counts down every second between the server's refreshes.
 *
 * Each clock ([data-clock]) carries the server's time when it was drawn (data-server-now, epoch ms) and, while it
 * runs, the moment it reaches zero (data-deadline, epoch ms). The difference between the server's time and this
 * device's corrects a phone whose own clock is wrong. Without this script the server's text stays as drawn.
 */
(function () {
  "use strict";
  if (window.tablescoreClock) {
    return;
  }
  window.tablescoreClock = true;

  function twoDigits(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function hoursMinutesSeconds(total) {
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    return hours ? hours + ":" + twoDigits(minutes) + ":" + twoDigits(seconds) : minutes + ":" + twoDigits(seconds);
  }

  /* As the server writes it: whole seconds rounded up while time is left, "+2:13 over" past zero. */
  function formatClock(left, overText) {
    if (left >= 0) {
      return hoursMinutesSeconds(Math.ceil(left));
    }
    return overText.replace("{time}", hoursMinutesSeconds(Math.floor(-left)));
  }

  function tick(clock) {
    var deadline = Number(clock.dataset.deadline);
    if (!deadline) {
      return;
    }
    if (clock.dataset.skew === undefined) {
      clock.dataset.skew = String(Number(clock.dataset.serverNow) - Date.now());
    }
    var left = (deadline - (Date.now() + Number(clock.dataset.skew))) / 1000;
    var time = clock.querySelector("[data-clock-time]");
    var text = formatClock(left, clock.dataset.overText || "+{time}");
    if (time && time.textContent !== text) {
      time.textContent = text;
    }
    var over = left < 0;
    clock.classList.toggle("over", over);
    clock.classList.toggle("late", !over && left < Number(clock.dataset.lateBelow || 0));
    var label = clock.querySelector("[data-clock-left]");
    if (label) {
      label.hidden = over;
    }
  }

  function tickAll() {
    document.querySelectorAll("[data-clock][data-deadline]").forEach(tick);
  }

  /* A few times a second, so the display turns with the second and not up to a second late. */
  window.setInterval(tickAll, 250);
  document.addEventListener("htmx:afterSettle", tickAll);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", tickAll);
  } else {
    tickAll();
  }
})();
