/** Runs async sends one after another (a zeromq socket refuses a send while another is in flight). */
export const serialQueue = (): ((task: () => Promise<unknown>) => void) => {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    tail = tail.then(task).catch(() => undefined);
  };
};
