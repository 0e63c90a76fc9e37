import type { ContactView } from "@/lib/contacts/contact-view";

export function serializeContact(contact: ContactView) {
  return {
    id: contact.id,
    email: contact.email,
    first_name: contact.firstName,
    last_name: contact.lastName,
    status: contact.status,
    attributes: contact.attributes,
    created_at: contact.createdAt.toISOString(),
  };
}
