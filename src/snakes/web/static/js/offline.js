// The "no connection" page the service worker shows when the server cannot be reached:
// it keeps asking the server, and goes back to the game as soon as it answers.

const status = document.querySelector("[data-testid=offline-status]");
const retry = document.querySelector("[data-testid=offline-retry]");
// The page stands in for the address the player opened (a home screen, an invite link).
retry.setAttribute("href", location.pathname + location.hash);

async function reachable() {
  try {
    const response = await fetch("/healthz", { cache: "no-store" });
    return response.ok;
  } catch {
    return false;
  }
}

async function check() {
  if (await reachable()) {
    status.textContent = "Connected again — opening the game…";
    location.reload();
    return;
  }
  setTimeout(check, 3000);
}

setTimeout(check, 3000);
