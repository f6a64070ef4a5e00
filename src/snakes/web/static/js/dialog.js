// A real <dialog> for confirmations (never window.confirm). Its styles come with it
// (css/dialog.css), and it opens once they apply.

import { useStyles } from "./lazy-screen.js";

export async function confirmDialog({ title, text, ok = "Leave", cancel = "Stay" }) {
  const dialog = document.getElementById("confirm");
  if (!dialog || typeof dialog.showModal !== "function") return true;
  await useStyles("dialog.css").catch((err) => console.error(err));
  dialog.querySelector("#confirm-title").textContent = title;
  dialog.querySelector("#confirm-text").textContent = text;
  dialog.querySelector("[value=ok]").textContent = ok;
  dialog.querySelector("[value=cancel]").textContent = cancel;
  dialog.returnValue = "";
  const opener = document.activeElement;
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        if (opener && typeof opener.focus === "function" && document.contains(opener)) opener.focus();
        resolve(dialog.returnValue === "ok");
      },
      { once: true },
    );
    if (dialog.open) dialog.close();
    dialog.showModal();
    dialog.querySelector("[value=cancel]").focus();
  });
}
