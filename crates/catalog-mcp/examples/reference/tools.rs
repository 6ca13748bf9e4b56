//! The reference tools, as the conformance suite's scenarios ask each to answer.

use std::time::Duration;

use catalog_core::talk::{Capability, Elicited, LogLevel, Sampled, Sampling};
use catalog_core::{Content, Context, Output};
use serde_json::json;

use crate::{
    AskArgs, ConfirmDeleteArgs, FailingJobArgs, GreetArgs, Handler, MultiInputArgs,
    ProtocolErrorJobArgs, SlowComputeArgs, TestAudioContentArgs, TestElicitationArgs,
    TestElicitationSep1034DefaultsArgs, TestElicitationSep1330EnumsArgs, TestEmbeddedResourceArgs,
    TestErrorHandlingArgs, TestHeaderRoutingArgs, TestImageContentArgs,
    TestInputRequiredResultCapabilitiesArgs, TestInputRequiredResultElicitationArgs,
    TestInputRequiredResultListRootsArgs, TestInputRequiredResultMultiRoundArgs,
    TestInputRequiredResultMultipleInputsArgs, TestInputRequiredResultRequestStateArgs,
    TestInputRequiredResultSamplingArgs, TestInputRequiredResultTamperedStateArgs,
    TestLoggingToolArgs, TestMissingCapabilityArgs, TestMultipleContentTypesArgs, TestSamplingArgs,
    TestSimpleTextArgs, TestStreamingElicitationArgs, TestToolWithLoggingArgs,
    TestToolWithProgressArgs, TestToolWithTaskArgs,
};

/// A 1x1 PNG and a WAV of one sample: the smallest valid media.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// How long the tools that talk back wait between two messages.
const PAUSE: Duration = Duration::from_millis(50);

/// The reference tools' handler: nothing to keep between calls.
pub struct Reference;

impl Handler for Reference {
    type Error = String;

    async fn ask(&self, _: Context, args: AskArgs) -> Result<Output, String> {
        Err(format!("no one can be asked `{}` here", args.question))
    }

    async fn test_simple_text(&self, _: Context, _: TestSimpleTextArgs) -> Result<Output, String> {
        Ok(Output::text("This is a simple text response for testing."))
    }

    async fn test_image_content(
        &self,
        _: Context,
        _: TestImageContentArgs,
    ) -> Result<Output, String> {
        Ok(Output::content(vec![Content::image(PNG, "image/png")]))
    }

    async fn test_audio_content(
        &self,
        _: Context,
        _: TestAudioContentArgs,
    ) -> Result<Output, String> {
        Ok(Output::content(vec![Content::audio(WAV, "audio/wav")]))
    }

    async fn test_embedded_resource(
        &self,
        _: Context,
        _: TestEmbeddedResourceArgs,
    ) -> Result<Output, String> {
        Ok(Output::content(vec![Content::resource_text(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )]))
    }

    async fn test_multiple_content_types(
        &self,
        _: Context,
        _: TestMultipleContentTypesArgs,
    ) -> Result<Output, String> {
        Ok(Output::content(vec![
            Content::text("Multiple content types test:"),
            Content::image(PNG, "image/png"),
            Content::resource_text(
                "test://mixed-content-resource",
                "application/json",
                r#"{"test":"data","value":123}"#,
            ),
        ]))
    }

    async fn test_tool_with_logging(
        &self,
        context: Context,
        _: TestToolWithLoggingArgs,
    ) -> Result<Output, String> {
        let steps = [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ];
        for (i, step) in steps.into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(PAUSE).await;
            }
            context
                .log(LogLevel::Info, Some("test_tool_with_logging"), step)
                .await
                .map_err(|e| e.to_string())?;
        }
        Ok(Output::text("Tool with logging executed successfully"))
    }

    async fn test_error_handling(
        &self,
        _: Context,
        _: TestErrorHandlingArgs,
    ) -> Result<Output, String> {
        Err(String::from(
            "This tool intentionally returns an error for testing",
        ))
    }

    // ANCHOR: talk
    async fn test_tool_with_progress(
        &self,
        context: Context,
        _: TestToolWithProgressArgs,
    ) -> Result<Output, String> {
        for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(PAUSE).await;
            }
            context
                .progress(done, Some(100.0), Some(&format!("{done}% done")))
                .await
                .map_err(|e| e.to_string())?;
        }
        Ok(Output::text("Tool with progress completed"))
    }

    async fn test_sampling(
        &self,
        context: Context,
        args: TestSamplingArgs,
    ) -> Result<Output, String> {
        let sampled = context
            .sample(Sampling::new(100).user(&args.prompt))
            .await
            .map_err(|e| e.to_string())?;
        let text = sampled.text().unwrap_or_default();
        Ok(Output::text(format!("LLM response: {text}")))
    }

    async fn test_elicitation(
        &self,
        context: Context,
        args: TestElicitationArgs,
    ) -> Result<Output, String> {
        let schema = json!({
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        });
        let answer = context
            .elicit(&args.message, schema)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!(
            "User response: {}",
            described(&answer)
        )))
    }
    // ANCHOR_END: talk

    async fn test_missing_capability(
        &self,
        context: Context,
        _: TestMissingCapabilityArgs,
    ) -> Result<Output, String> {
        let sampled = context
            .sample(Sampling::new(20).user("Say something."))
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!("Success: {}", said(&sampled))))
    }

    async fn test_input_required_result_elicitation(
        &self,
        context: Context,
        _: TestInputRequiredResultElicitationArgs,
    ) -> Result<Output, String> {
        Reference::greet(&context).await
    }

    async fn test_input_required_result_sampling(
        &self,
        context: Context,
        _: TestInputRequiredResultSamplingArgs,
    ) -> Result<Output, String> {
        let sampled = context
            .keyed("sample_request")
            .sample(Sampling::new(100).user("What is the capital of France?"))
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!("Sampling result: {}", said(&sampled))))
    }

    async fn test_input_required_result_list_roots(
        &self,
        context: Context,
        _: TestInputRequiredResultListRootsArgs,
    ) -> Result<Output, String> {
        let roots = context
            .keyed("roots_request")
            .roots()
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!("Found {} root(s)", roots.len())))
    }

    async fn test_input_required_result_request_state(
        &self,
        context: Context,
        _: TestInputRequiredResultRequestStateArgs,
    ) -> Result<Output, String> {
        // The answer reached this run through the state the server sealed and the client
        // handed back; a state that did not hold never gets here.
        Reference::confirmed(&context, "state-ok: requestState validated").await
    }

    async fn test_input_required_result_multiple_inputs(
        &self,
        context: Context,
        _: TestInputRequiredResultMultipleInputsArgs,
    ) -> Result<Output, String> {
        // Asked together: one round carries all three questions.
        let (user, model, client) = (
            context.keyed("user_name"),
            context.keyed("greeting"),
            context.keyed("client_roots"),
        );
        let (name, greeting, roots) = tokio::join!(
            user.elicit("What is your name?", one_field("name", "string")),
            model.sample(Sampling::new(50).user("Generate a greeting")),
            client.roots(),
        );
        let (name, greeting, roots) = (
            name.map_err(|e| e.to_string())?,
            greeting.map_err(|e| e.to_string())?,
            roots.map_err(|e| e.to_string())?,
        );
        Ok(Output::text(format!(
            "Name: {}; Greeting: {}; Roots: {}",
            field(&name, "name"),
            said(&greeting),
            roots.len()
        )))
    }

    async fn test_input_required_result_multi_round(
        &self,
        context: Context,
        _: TestInputRequiredResultMultiRoundArgs,
    ) -> Result<Output, String> {
        let name = context
            .keyed("step1")
            .elicit("Step 1: What is your name?", one_field("name", "string"))
            .await
            .map_err(|e| e.to_string())?;
        let colour = context
            .keyed("step2")
            .elicit(
                "Step 2: What is your favorite color?",
                one_field("color", "string"),
            )
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!(
            "Multi-round complete for {} who likes {}",
            field(&name, "name"),
            field(&colour, "color")
        )))
    }

    async fn test_input_required_result_tampered_state(
        &self,
        context: Context,
        _: TestInputRequiredResultTamperedStateArgs,
    ) -> Result<Output, String> {
        Reference::confirmed(&context, "integrity-ok: state verified").await
    }

    async fn test_input_required_result_capabilities(
        &self,
        context: Context,
        _: TestInputRequiredResultCapabilitiesArgs,
    ) -> Result<Output, String> {
        // Only what the client declared is asked, all in one round.
        let declared = context.declared();
        let (user, model) = (context.keyed("elicit_input"), context.keyed("sample_input"));
        let (value, sample) = tokio::join!(
            async {
                if declared.has(Capability::ElicitationForm) {
                    let form = one_field("value", "string");
                    let answer = user.elicit("Elicitation input", form).await;
                    Some(answer.map(|answer| field(&answer, "value")))
                } else {
                    None
                }
            },
            async {
                if declared.has(Capability::Sampling) {
                    let request = Sampling::new(50).user("Sample request");
                    Some(model.sample(request).await.map(|sampled| said(&sampled)))
                } else {
                    None
                }
            },
        );
        let received: Vec<String> = [value, sample]
            .into_iter()
            .flatten()
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        Ok(Output::text(if received.is_empty() {
            String::from("No supported capabilities declared")
        } else {
            format!("capabilities-ok: received {}", received.join(", "))
        }))
    }

    async fn test_streaming_elicitation(
        &self,
        context: Context,
        _: TestStreamingElicitationArgs,
    ) -> Result<Output, String> {
        context
            .progress(50.0, Some(100.0), Some("half way"))
            .await
            .map_err(|e| e.to_string())?;
        Reference::confirmed(&context, "Streaming complete").await
    }

    async fn test_header_routing(
        &self,
        _: Context,
        args: TestHeaderRoutingArgs,
    ) -> Result<Output, String> {
        // The server held the `Mcp-Param-*` headers to these arguments before this ran.
        let priority = args
            .priority
            .map_or(String::new(), |p| format!(", priority {p}"));
        Ok(Output::text(format!(
            "Routed to region {}{priority}",
            args.region
        )))
    }

    async fn test_logging_tool(
        &self,
        context: Context,
        _: TestLoggingToolArgs,
    ) -> Result<Output, String> {
        context
            .log(
                LogLevel::Info,
                Some("test_logging_tool"),
                "Logging tool ran",
            )
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text("Logging tool completed"))
    }

    async fn test_elicitation_sep1034_defaults(
        &self,
        context: Context,
        _: TestElicitationSep1034DefaultsArgs,
    ) -> Result<Output, String> {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {
                    "type": "string", "description": "User status",
                    "enum": ["active", "inactive", "pending"], "default": "active",
                },
                "verified": {"type": "boolean", "description": "Verification status", "default": true},
            },
            "required": [],
        });
        let answer = context
            .elicit(
                "Please review and update the form fields with defaults",
                schema,
            )
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!(
            "Elicitation completed: {}",
            described(&answer)
        )))
    }

    async fn test_elicitation_sep1330_enums(
        &self,
        context: Context,
        _: TestElicitationSep1330EnumsArgs,
    ) -> Result<Output, String> {
        let titled = |values: [(&str, &str); 3]| {
            values
                .into_iter()
                .map(|(value, title)| json!({"const": value, "title": title}))
                .collect::<Vec<_>>()
        };
        let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string", "description": "Select one option",
                    "enum": ["option1", "option2", "option3"],
                },
                "titledSingle": {
                    "type": "string", "description": "Select one option with titles",
                    "oneOf": titled([("value1", "First Option"), ("value2", "Second Option"), ("value3", "Third Option")]),
                },
                "legacyEnum": {
                    "type": "string", "description": "Select one option (legacy)",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"],
                },
                "untitledMulti": {
                    "type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3,
                    "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
                },
                "titledMulti": {
                    "type": "array", "description": "Select multiple options with titles", "minItems": 1, "maxItems": 3,
                    "items": {"anyOf": titled([("value1", "First Choice"), ("value2", "Second Choice"), ("value3", "Third Choice")])},
                },
            },
            "required": [],
        });
        let answer = context
            .elicit("Please select options from the enum fields", schema)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!(
            "Elicitation completed: {}",
            described(&answer)
        )))
    }

    async fn greet(&self, _: Context, args: GreetArgs) -> Result<Output, String> {
        Ok(Output::text(format!("Hello, {}!", args.name)))
    }

    // ANCHOR: tasks
    async fn slow_compute(&self, _: Context, args: SlowComputeArgs) -> Result<Output, String> {
        // The first wait on the work makes the call a task, for a client that takes them.
        if args.seconds > 0 {
            tokio::time::sleep(Duration::from_secs(args.seconds.unsigned_abs())).await;
        }
        let label = args.label.unwrap_or_default();
        Ok(Output::text(format!(
            "Computed {label} in {} seconds",
            args.seconds
        )))
    }

    async fn confirm_delete(
        &self,
        context: Context,
        args: ConfirmDeleteArgs,
    ) -> Result<Output, String> {
        // A task from here: the question is the task's, and the handler waits for it.
        context.as_task().await;
        let schema = one_field("confirm", "boolean");
        let message = format!("Delete {}?", args.filename);
        let answer = context
            .elicit(&message, schema)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(match answer {
            Elicited::Accepted(_) => format!("Deleted {}", args.filename),
            _ => format!("Kept {}", args.filename),
        }))
    }

    async fn test_tool_with_task(
        &self,
        context: Context,
        _: TestToolWithTaskArgs,
    ) -> Result<Output, String> {
        // Asked before the task exists: a round of the call, answered in its retry.
        let answer = context
            .keyed("user_name")
            .elicit("What is your name?", one_field("name", "string"))
            .await
            .map_err(|e| e.to_string())?;
        context.as_task().await;
        tokio::time::sleep(PAUSE).await;
        Ok(Output::text(format!("Hello, {}!", field(&answer, "name"))))
    }
    // ANCHOR_END: tasks

    async fn multi_input(&self, context: Context, _: MultiInputArgs) -> Result<Output, String> {
        context.as_task().await;
        // Asked together: the task waits on both, and each answer is taken as it comes.
        let (name, confirm) = tokio::join!(
            context.elicit("What is your name?", one_field("name", "string")),
            context.elicit("Go ahead?", one_field("confirm", "boolean")),
        );
        let (name, confirm) = (
            name.map_err(|e| e.to_string())?,
            confirm.map_err(|e| e.to_string())?,
        );
        Ok(Output::text(format!(
            "Name: {}; go ahead: {}",
            field(&name, "name"),
            field(&confirm, "confirm")
        )))
    }

    async fn failing_job(&self, _: Context, _: FailingJobArgs) -> Result<Output, String> {
        tokio::time::sleep(Duration::from_secs(1)).await;
        Err(String::from("the job failed after a second of work"))
    }

    async fn protocol_error_job(
        &self,
        context: Context,
        _: ProtocolErrorJobArgs,
    ) -> Result<Output, String> {
        context.as_task().await;
        // No tool result at all: the task fails with the server's internal error.
        panic!("protocol_error_job breaks on purpose, to fail its task");
    }
}

/// A form of one field, `name`, of JSON type `kind`.
fn one_field(name: &str, kind: &str) -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {name: {"type": kind}},
        "required": [name],
    })
}

/// What the user filled in field `name` with, as text.
fn field(answer: &Elicited, name: &str) -> String {
    match answer {
        Elicited::Accepted(fields) => match fields.get(name) {
            Some(serde_json::Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        },
        _ => String::new(),
    }
}

/// What the model said, or that it said nothing.
fn said(sampled: &Sampled) -> String {
    sampled.text().unwrap_or_else(|| "no response".into())
}

/// The tools a client on 2026-07-28 calls: each asks through its context, and the server
/// asks the client between rounds.
impl Reference {
    async fn greet(context: &Context) -> Result<Output, String> {
        let answer = context
            .keyed("user_name")
            .elicit("What is your name?", one_field("name", "string"))
            .await
            .map_err(|e| e.to_string())?;
        Ok(Output::text(format!("Hello, {}!", field(&answer, "name"))))
    }

    async fn confirmed(context: &Context, done: &str) -> Result<Output, String> {
        let answer = context
            .keyed("confirm")
            .elicit("Please confirm", one_field("ok", "boolean"))
            .await
            .map_err(|e| e.to_string())?;
        match answer {
            Elicited::Accepted(_) => Ok(Output::text(done)),
            _ => Err(String::from("the user did not confirm")),
        }
    }
}

/// How the user answered, as the suite's reference server words it.
fn described(answer: &catalog_core::talk::Elicited) -> String {
    let json = answer.to_json();
    let content = json.get("content").cloned().unwrap_or_else(|| json!({}));
    format!(
        "action={}, content={content}",
        json["action"].as_str().unwrap_or_default()
    )
}
