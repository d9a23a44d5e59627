/**
 * The confirm step of an action that moves money or cannot be undone: the first POST only says
 * what would happen (the page shows it with ConfirmStep, the values carried in hidden fields);
 * the action happens when the same form comes back with `confirmed=yes`, every value checked
 * again. Server-rendered, so it works the same without JavaScript.
 */
export const CONFIRMED_FIELD = 'confirmed';

export interface Confirmation {
  /** A question naming the action: "Rotate the API token?" */
  title: string;
  /** What happens, in sentences, the irreversible part last. */
  consequences: string[];
  /** The form's `action` field on confirm, and the values it carries back. */
  action: string;
  fields: Record<string, string>;
  confirmLabel: string;
  /** The way out: a link back to the page, or (`edit`) a button that shows the form again with its values. */
  back: { label: string; href: string } | { label: string; edit: true };
}

/** Whether the form is the confirm step coming back (anything else only asks). */
export const isConfirmed = (field: (name: string) => string) => field(CONFIRMED_FIELD) === 'yes';

/** Whether the confirm step's "change" button sent it back to be edited. */
export const isEditing = (field: (name: string) => string) => field(CONFIRMED_FIELD) === 'edit';
