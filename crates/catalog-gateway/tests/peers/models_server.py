"""An MCP server, written with the official Python SDK, whose tools take pydantic models:
the schemas such servers publish (`$defs`, open nested objects, `pattern`, maps whose
values have a schema, sets, tuples, multiples, literals, optional fields) and tools
annotated with every hint. Each tool answers with the arguments it was given, so a test
sees what reached it. Over stdio.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

server = MCPServer("models")


class Address(BaseModel):
    street: str
    zip: Annotated[str, Field(pattern=r"^\d{5}$")]


class Customer(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")]
    address: Address | None = None
    tags: set[str] = set()


@server.tool(
    title="Register a customer",
    annotations=ToolAnnotations(
        title="Register a customer",
        readOnlyHint=False,
        destructiveHint=False,
        idempotentHint=True,
        openWorldHint=False,
    ),
)
def register(customer: Customer, note: str | None = None) -> dict:
    """Registers a customer with their address."""
    return {"customer": customer.model_dump(), "note": note}


@server.tool(
    title="Set stock counts",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False),
)
def set_stock(
    counts: dict[str, Annotated[int, Field(ge=0)]],
    step: Annotated[int, Field(multiple_of=5)] = 5,
    unit: Literal["box", "piece"] = "piece",
) -> dict:
    """Sets each SKU's stock count, in steps."""
    return {"counts": counts, "step": step, "unit": unit}


@server.tool(
    title="Plot a point",
    annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False),
)
def plot(
    point: tuple[float, float],
    label: Annotated[str, Field(pattern=r"^[A-Z]\w*$")] = "P",
    scale: Annotated[float, Field(gt=0, le=10)] = 1.0,
) -> dict:
    """Plots a point with a label."""
    return {"point": list(point), "label": label, "scale": scale}


if __name__ == "__main__":
    server.run()
