// The replay screen's route. The screen itself (board replay, odds chart) loads only
// when someone opens a replay, so the page the first game needs stays small.

export function mount(root, route, ctx) {
  let cleanup = null;
  let gone = false;
  import("./replay.js").then((screen) => {
    if (!gone) cleanup = screen.mount(root, route, ctx);
  }, (err) => console.error(err));
  return () => {
    gone = true;
    if (typeof cleanup === "function") cleanup();
  };
}
