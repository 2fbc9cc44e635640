// "Your turn" alerts: a short sound and a desktop notification, both off until the player
// turns them on (kept in this browser). The sound is made on the spot (Web Audio), so no
// file is fetched; the notification shows only while the page is hidden.

const KEY = "dicehall.alerts";

export function loadAlerts() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { sound: saved.sound === true, notify: saved.notify === true };
  } catch {
    return { sound: false, notify: false };
  }
}

export function saveAlerts(alerts) {
  try {
    localStorage.setItem(KEY, JSON.stringify(alerts));
  } catch {
    /* this page only */
  }
}

/** Turning desktop notifications on asks the browser's permission; false if refused. */
export async function allowNotifications() {
  if (typeof Notification === "undefined") return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  return (await Notification.requestPermission()) === "granted";
}

let audio = null;

/** Two soft rising beeps. */
export function turnSound() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  audio = audio || new Context();
  const start = audio.currentTime;
  [660, 880].forEach((frequency, i) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + i * 0.16);
    gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.16 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.16 + 0.14);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + i * 0.16);
    tone.stop(start + i * 0.16 + 0.15);
  });
  return true;
}

/** Tell the player their turn has come, as they chose. Returns what was done (for tests). */
export function alertTurn(alerts, title) {
  const done = [];
  if (alerts.sound && turnSound()) done.push("sound");
  if (alerts.notify && document.hidden && typeof Notification !== "undefined" && Notification.permission === "granted") {
    new Notification("Your turn", { body: title, tag: "dicehall-turn" });
    done.push("notification");
  }
  return done;
}
