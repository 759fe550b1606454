/** A promise and the function that resolves it: one side waits on `done`, the other says when. */
export function signal(): { done: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (fire = resolve));
  return { done, fire };
}
