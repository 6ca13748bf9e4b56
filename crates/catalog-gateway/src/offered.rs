//! What the gateway serves besides tools: the prompts, resources and resource templates of
//! its upstreams that the catalog pins (`[[prompt]]`, `[[resource]]`). Each is listed and
//! read only through one rule (`Gateway::offered`): at the client's level, while its
//! upstream's listing matches the pin. It is listed with the table's reviewed text, and
//! what a prompt or a resource holds is read by the result scanner before the client's
//! model reads it.

use catalog_check::model::{Offer, Offered};
use catalog_core::{Access, Screened};
use catalog_mcp::Grant;
use rmcp::ErrorData;
use rmcp::model::{CompleteRequestParams, CompleteResult, Reference};
use serde_json::{Map, Value};

use std::sync::Arc;

use catalog_upstream::relay::Origin;
use rmcp::model::RequestId;

use crate::gateway::Gateway;
use crate::relay::{CallRelay, Link, Sessionless};
use catalog_mcp::offers::template_matches;
use catalog_upstream::drift::Standing;

/// Why a table is not served to a client: the refusal it is given.
enum Refused {
    /// No table pins it.
    Unknown,
    /// Its table needs a higher level than the client's.
    Level(Access),
    /// Its upstream's listing drifted from the pin, or the upstream is down.
    Withheld(Standing),
}

impl Gateway {
    /// The one rule for prompts and resources: table `i` is served to `grant`'s client
    /// when its profile, if any, sees the table's upstream (else it reads as unknown), its
    /// level reaches the table's `access`, and its upstream's listing is current; then its
    /// listing, as the upstream gives it.
    fn offered(&self, grant: &Grant, i: usize) -> Result<Value, Refused> {
        let offer = &self.loaded().catalog.offers[i];
        if !self.sees_offers_of(grant, &offer.upstream) {
            return Err(Refused::Unknown);
        }
        if grant.access < offer.access {
            return Err(Refused::Level(offer.access));
        }
        let pinned = crate::gateway::read(&self.offers);
        match pinned.get(&i) {
            Some((Standing::Current, Some(listing))) => Ok(listing.clone()),
            Some((standing, _)) => Err(Refused::Withheld(standing.clone())),
            None => Err(Refused::Withheld(Standing::Unreachable(
                "not compared yet".into(),
            ))),
        }
    }

    /// What a listing answers `grant`'s client: each table of kind `like` it may read, as
    /// reviewed.
    fn listing(&self, grant: &Grant, like: fn(&Offered) -> bool) -> Vec<Value> {
        let offers = &self.loaded().catalog.offers;
        (0..offers.len())
            .filter(|&i| like(&offers[i].what))
            .filter_map(|i| Some(reviewed(&offers[i], self.offered(grant, i).ok()?)))
            .collect()
    }

    /// `prompts/list` for `grant`'s client.
    #[must_use]
    pub fn prompts(&self, grant: &Grant) -> Vec<Value> {
        self.listing(grant, |w| matches!(w, Offered::Prompt(_)))
    }

    /// `resources/list` for `grant`'s client.
    #[must_use]
    pub fn resources(&self, grant: &Grant) -> Vec<Value> {
        self.listing(grant, |w| matches!(w, Offered::Resource(_)))
    }

    /// `resources/templates/list` for `grant`'s client.
    #[must_use]
    pub fn templates(&self, grant: &Grant) -> Vec<Value> {
        self.listing(grant, |w| matches!(w, Offered::Template(_)))
    }

    /// `prompts/get` of `name` for `grant`'s client: the upstream's messages, each text read by the
    /// result scanner, with the table's reviewed description. A client without a session
    /// gives its request (`sessionless`), whose own relay what the upstream asks meanwhile
    /// goes to.
    ///
    /// # Errors
    /// An unknown or withheld prompt, a level too low, or the upstream's own error, each
    /// with the way on.
    pub async fn get_prompt(
        &self,
        grant: &Grant,
        link: &Link,
        name: &str,
        arguments: Option<Map<String, Value>>,
        sessionless: Option<(RequestId, Sessionless)>,
    ) -> Result<Value, ErrorData> {
        let what = Offered::Prompt(name.to_owned());
        let i = self
            .find(&what)
            .ok_or_else(|| refusal(&what, &Refused::Unknown))?;
        self.offered(grant, i).map_err(|r| refusal(&what, &r))?;
        let offer = &self.loaded().catalog.offers[i];
        let session = self.session(link, &offer.upstream).await?;
        let origin = self.origin(grant, name, &offer.upstream, sessionless);
        // Its name on the upstream, which a table renamed on a collision keeps.
        let mut result = session
            .get_prompt(offer.on_upstream.id(), arguments, origin)
            .await
            .map_err(|e| ErrorData::internal_error(e, None))?;
        if let Value::Object(fields) = &mut result {
            match &offer.description {
                Some(description) => {
                    fields.insert("description".into(), description.clone().into())
                }
                None => fields.remove("description"),
            };
        }
        let messages = result.get_mut("messages").and_then(Value::as_array_mut);
        for message in messages.into_iter().flatten() {
            let content = message.get_mut("content");
            for block in content.into_iter().flat_map(blocks) {
                self.screen_text(offer.what.id(), block.get_mut("text"))?;
                self.screen_text(offer.what.id(), block.pointer_mut("/resource/text"))?;
            }
        }
        Ok(result)
    }

    /// The origin of a request of `grant`'s client without a session, for `what` (a
    /// prompt's name, a resource's URI) from `upstream`: its own relay.
    fn origin(
        &self,
        grant: &Grant,
        what: &str,
        upstream: &str,
        sessionless: Option<(RequestId, Sessionless)>,
    ) -> Option<Origin> {
        sessionless.map(|(request, call)| Origin {
            request,
            progress: None,
            tool: what.to_owned(),
            relay: Some(Arc::new(CallRelay::new(
                call,
                upstream,
                grant,
                self.audit().cloned(),
            ))),
            // Prompts and resources are read through the gateway's sessions at
            // 2025-11-25, whose requests carry no `_meta` of the client's.
            meta: None,
        })
    }

    /// `resources/read` of `uri` for `grant`'s client: from the upstream of the table that pins the
    /// URI, or else of the template that matches it; each text read by the result scanner.
    ///
    /// # Errors
    /// A URI no table pins or matches (-32002), a withheld table, a level too low, or the
    /// upstream's own error, each with the way on.
    pub async fn read_resource(
        &self,
        grant: &Grant,
        link: &Link,
        uri: &str,
        sessionless: Option<(RequestId, Sessionless)>,
    ) -> Result<Value, ErrorData> {
        // A resource no table pins or matches, that a result handed this client a link
        // to, is the result's own; one a table pins follows the table's rule alone.
        let linked = self
            .find_resource(uri)
            .is_none()
            .then(|| link.linked(uri))
            .flatten();
        let (upstream, scanned_as) = if let Some(linked) = linked {
            linked
        } else {
            let offer = self.resource_offer(grant, uri)?;
            (offer.upstream.clone(), offer.what.id().to_owned())
        };
        let session = self.session(link, &upstream).await?;
        let origin = self.origin(grant, uri, &upstream, sessionless);
        let mut result = session
            .read_resource(uri, origin)
            .await
            .map_err(|e| ErrorData::internal_error(e, None))?;
        let contents = result.get_mut("contents").and_then(Value::as_array_mut);
        for content in contents.into_iter().flatten() {
            self.screen_text(&scanned_as, content.get_mut("text"))?;
        }
        Ok(result)
    }

    /// The table that pins resource `uri`, or else the template that matches it, when
    /// `grant`'s client is served it.
    ///
    /// # Errors
    /// A URI no table pins or matches (-32002), a withheld table, or a level too low.
    fn resource_offer(&self, grant: &Grant, uri: &str) -> Result<&Offer, ErrorData> {
        let Some(i) = self.find_resource(uri) else {
            return Err(refusal(
                &Offered::Resource(uri.to_owned()),
                &Refused::Unknown,
            ));
        };
        let offer = &self.loaded().catalog.offers[i];
        self.offered(grant, i)
            .map_err(|r| refusal(&offer.what, &r))?;
        Ok(offer)
    }

    /// The table that pins resource `uri`, or else the first template that matches it.
    fn find_resource(&self, uri: &str) -> Option<usize> {
        let offers = &self.loaded().catalog.offers;
        self.find(&Offered::Resource(uri.to_owned())).or_else(|| {
            (0..offers.len()).find(
                |&i| matches!(&offers[i].what, Offered::Template(t) if template_matches(t, uri)),
            )
        })
    }

    /// `completion/complete` for `grant`'s client: the argument of a prompt or template
    /// the client is served, completed by that table's upstream.
    ///
    /// # Errors
    /// A prompt or template the client is not served, as for `prompts/get` or
    /// `resources/read`, or the upstream's own error.
    pub async fn complete(
        &self,
        grant: &Grant,
        link: &Link,
        mut request: CompleteRequestParams,
    ) -> Result<CompleteResult, ErrorData> {
        let what = match &request.r#ref {
            Reference::Prompt(prompt) => Offered::Prompt(prompt.name.clone()),
            Reference::Resource(resource) => Offered::Template(resource.uri.clone()),
            _ => {
                return Err(ErrorData::invalid_params(
                    "completion/complete names a prompt or a resource template",
                    None,
                ));
            }
        };
        let i = self
            .find(&what)
            .ok_or_else(|| refusal(&what, &Refused::Unknown))?;
        self.offered(grant, i).map_err(|r| refusal(&what, &r))?;
        let offer = &self.loaded().catalog.offers[i];
        if let (Reference::Prompt(prompt), Offered::Prompt(name)) =
            (&mut request.r#ref, &offer.on_upstream)
        {
            // The upstream knows the prompt by its own name.
            prompt.name.clone_from(name);
        }
        let session = self.session(link, &offer.upstream).await?;
        let mut result = session
            .complete(request)
            .await
            .map_err(|e| ErrorData::internal_error(e, None))?;
        // What the upstream proposes is text the client's model may read.
        let mut kept = Vec::with_capacity(result.completion.values.len());
        for value in std::mem::take(&mut result.completion.values) {
            let mut value = Value::String(value);
            if self.screen_text(offer.what.id(), Some(&mut value)).is_ok()
                && let Value::String(value) = value
            {
                kept.push(value);
            }
        }
        result.completion.values = kept;
        Ok(result)
    }

    /// `resources/subscribe` for `grant`'s client: to a resource it is served, through
    /// its session with that resource's upstream, whose updates reach it alone.
    ///
    /// # Errors
    /// A resource the client is not served, as for `resources/read`, or the upstream's
    /// own error.
    pub async fn subscribe(&self, grant: &Grant, link: &Link, uri: &str) -> Result<(), ErrorData> {
        let offer = self.resource_offer(grant, uri)?;
        let session = self.session(link, &offer.upstream).await?;
        session
            .subscribe(uri)
            .await
            .map_err(|e| ErrorData::internal_error(e, None))
    }

    /// Whether `grant`'s client may read resource `uri`, so hear of its updates.
    #[must_use]
    pub fn may_read(&self, grant: &Grant, uri: &str) -> bool {
        self.resource_offer(grant, uri).is_ok()
    }

    /// `resources/unsubscribe` for `grant`'s client.
    ///
    /// # Errors
    /// As [`Gateway::subscribe`].
    pub async fn unsubscribe(
        &self,
        grant: &Grant,
        link: &Link,
        uri: &str,
    ) -> Result<(), ErrorData> {
        let offer = self.resource_offer(grant, uri)?;
        let session = self.session(link, &offer.upstream).await?;
        session
            .unsubscribe(uri)
            .await
            .map_err(|e| ErrorData::internal_error(e, None))
    }

    /// The table that pins `what`.
    fn find(&self, what: &Offered) -> Option<usize> {
        self.loaded()
            .catalog
            .offers
            .iter()
            .position(|o| o.what == *what)
    }

    /// `link`'s session with `upstream`.
    async fn session(
        &self,
        link: &Link,
        upstream: &str,
    ) -> Result<std::sync::Arc<catalog_upstream::Upstream>, ErrorData> {
        self.session_for(link, upstream)
            .await
            .map_err(|e| ErrorData::internal_error(e, None))
    }

    /// A text of a prompt or resource as the client's model reads it: with the scanner's
    /// notice first when it found something, or refused when the policy withholds it.
    fn screen_text(&self, what: &str, text: Option<&mut Value>) -> Result<(), ErrorData> {
        let Some(text) = text.filter(|t| t.is_string()) else {
            return Ok(());
        };
        match self.scanner.screen_named(what, text.take()) {
            Screened::Pass(value) => *text = value,
            Screened::Flagged { result, notice } => {
                let body = result.as_str().unwrap_or_default();
                *text = format!("{notice}\n\n{body}").into();
            }
            Screened::Withheld(rejection) => {
                return Err(ErrorData::invalid_params(rejection.message, None));
            }
        }
        Ok(())
    }
}

/// A content field: one block, or a list of them.
fn blocks(content: &mut Value) -> Vec<&mut Value> {
    match content {
        Value::Array(items) => items.iter_mut().collect(),
        block => vec![block],
    }
}

/// A table's listing as clients see it: the upstream's, with the table's name for a
/// prompt (which a table renamed on a collision changes), and its reviewed description and
/// argument descriptions instead of the server's (none where the table gives none: only
/// reviewed text reaches the model).
fn reviewed(offer: &Offer, mut listing: Value) -> Value {
    let Value::Object(fields) = &mut listing else {
        return listing;
    };
    if let Offered::Prompt(name) = &offer.what {
        fields.insert("name".into(), name.clone().into());
    }
    match &offer.description {
        Some(description) => fields.insert("description".into(), description.clone().into()),
        None => fields.remove("description"),
    };
    if let Some(Value::Array(arguments)) = fields.get_mut("arguments") {
        for argument in arguments.iter_mut().filter_map(Value::as_object_mut) {
            let name = argument
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            match offer.arguments.iter().find(|(n, _)| n == name) {
                Some((_, description)) => {
                    argument.insert("description".into(), description.clone().into())
                }
                None => argument.remove("description"),
            };
        }
    }
    listing
}

/// The error a client gets for a prompt or resource it may not have.
fn refusal(what: &Offered, why: &Refused) -> ErrorData {
    match why {
        Refused::Unknown if matches!(what, Offered::Prompt(_)) => ErrorData::invalid_params(
            format!(
                "Unknown prompt: {}. prompts/list names the prompts this connection may get.",
                what.id()
            ),
            None,
        ),
        Refused::Unknown => ErrorData::resource_not_found(
            format!(
                "Resource not found: {}. resources/list and resources/templates/list name what this connection may read.",
                what.id()
            ),
            Some(serde_json::json!({ "uri": what.id() })),
        ),
        Refused::Level(access) => ErrorData::invalid_params(
            format!(
                "The {what} needs the access level {access}; this connection's level is lower. Use a connection at {access} or above."
            ),
            None,
        ),
        Refused::Withheld(standing) => ErrorData::invalid_params(
            format!(
                "The {what} is withheld: {standing}. It is served again {}.",
                standing.served_again()
            ),
            None,
        ),
    }
}
