// The Verify screen's route. The screen and the replay of the dice it runs load only
// when someone checks a game, so the page the first game needs stays small.

export function mount(root, route, ctx) {
  let cleanup = null;
  let gone = false;
  import("./verify.js").then((screen) => {
    if (!gone) cleanup = screen.mount(root, route, ctx);
  }, (err) => console.error(err));
  return () => {
    gone = true;
    if (typeof cleanup === "function") cleanup();
  };
}
