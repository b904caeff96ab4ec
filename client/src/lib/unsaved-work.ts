// Work on screen that is not saved yet (the marks grid's changed cells). The page
// that holds it registers a question here while it does; logging out asks it first,
// as a link to another page does (UnsavedChangesPrompt). Kept apart from the prompt
// so that the header's logout loads no dialog code.

/** Resolves true when the person chooses to leave the work unsaved. */
type Ask = () => Promise<boolean>;

const askers = new Set<Ask>();

export const unsavedWork = {
  /** Registers a question; the returned function removes it. */
  register(ask: Ask): () => void {
    askers.add(ask);
    return () => askers.delete(ask);
  },
  /** Something on screen is not saved yet. */
  any(): boolean {
    return askers.size > 0;
  },
  /** True when nothing is unsaved, or the person chose to leave it. */
  async mayLeave(): Promise<boolean> {
    for (const ask of [...askers]) if (!(await ask())) return false;
    return true;
  },
};
